import type { Spread } from './roundStatistics.js';

/** How the report writes its figures, one rule each. */

/** Requests (or calls) per second, whole, with thousands separators. */
export const rps = (value: number) => Math.round(value).toLocaleString('en-US');

/** `a / b`, or null when there is none: a `b` of 0 or a missing figure (never NaN or Infinity). */
export function quotient(a: number | null, b: number | null): number | null {
  return a !== null && b !== null && Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : null;
}

/** `a / b` to two decimals; where there is none, `zero` says why in words. */
export function ratio(a: number | null, b: number | null, zero: string): string {
  return quotient(a, b)?.toFixed(2) ?? zero;
}

/** The server's requests/s as a share of the same-bytes floor's. */
export const floorRatio = (server: number, floor: number) => ratio(server, floor, 'n/a: floor 0 req/s');

/** A latency in milliseconds to two decimals (many calls answer in under one); '-' when there is none. */
export const ms = (value: number | null) =>
  value !== null && Number.isFinite(value) ? String(Math.round(value * 100) / 100) : '-';

/** A share of the floor over rounds: its lowest and highest round, and how many rounds; 'one run' for one. */
export function roundSpread(share: Spread | null): string {
  if (share === null) return '-';
  if (share.count === 1) return 'one run';
  return `${share.min.toFixed(2)}-${share.max.toFixed(2)} of ${share.count}`;
}

/** CPU µs per call to one decimal; '-' where there is no figure. */
export const micros = (value: number | null | undefined) =>
  value === null || value === undefined ? '-' : value.toFixed(1);

/** Cores busy, to two decimals; '-' where there is no figure. */
export const cores = (value: number | null | undefined) =>
  value === null || value === undefined ? '-' : value.toFixed(2);
