import { monthNames } from './calendarDate.js';

/** Instants as a holder's mail says them: "00:00 UTC on 1 December 2026", never an ISO timestamp. */

const dayOf = (at: Date) => `${at.getUTCDate()} ${monthNames[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
const two = (value: number) => String(value).padStart(2, '0');

/** "00:00 UTC on 1 December 2026"; the last second of a day is "the end of 30 June 2027 (UTC)". */
export function instantInWords(iso: string | Date): string {
  const at = typeof iso === 'string' ? new Date(iso) : iso;
  if (at.getUTCHours() === 23 && at.getUTCMinutes() === 59 && at.getUTCSeconds() === 59)
    return `the end of ${dayOf(at)} (UTC)`;
  return `${two(at.getUTCHours())}:${two(at.getUTCMinutes())} UTC on ${dayOf(at)}`;
}
