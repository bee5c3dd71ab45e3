/** Allowances run per calendar month in UTC: these are the only month computations. */

export interface CalendarMonth {
  /** First day, 'YYYY-MM-01': the monthly_usage key. */
  readonly key: string;
  readonly start: Date;
  /** 00:00 UTC on the 1st of the next month: when the allowance resets. */
  readonly next: Date;
}

const monthKeyPattern = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The month asked for last: every API call asks for the month of now, the same until it turns. */
let lastMonth: { month: CalendarMonth; from: number; until: number } | undefined;

/** The calendar month (UTC) `instant` falls in; callers share the object, so they must not change its Dates. */
export function calendarMonthOf(instant: Date): CalendarMonth {
  const time = instant.getTime();
  if (lastMonth !== undefined && time >= lastMonth.from && time < lastMonth.until) return lastMonth.month;
  const year = instant.getUTCFullYear();
  const month = instant.getUTCMonth();
  const start = new Date(Date.UTC(year, month, 1));
  const next = new Date(Date.UTC(year, month + 1, 1));
  const found = { key: `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-01`, start, next };
  if (!Number.isNaN(time)) lastMonth = { month: found, from: start.getTime(), until: next.getTime() };
  return found;
}

/** Parses 'YYYY-MM' (the CLI's --month); undefined when it is not one. */
export function parseMonth(text: string): CalendarMonth | undefined {
  const match = monthKeyPattern.exec(text);
  if (!match) return undefined;
  return calendarMonthOf(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)));
}

export function secondsInMonth(month: CalendarMonth): number {
  return Math.round((month.next.getTime() - month.start.getTime()) / 1000);
}

/** Whole seconds until the reset, rounded up so a client waiting that long is never early. */
export function secondsUntilReset(now: Date): number {
  return Math.max(0, Math.ceil((calendarMonthOf(now).next.getTime() - now.getTime()) / 1000));
}

let lastIso = { time: Number.NaN, text: '' };

/** ISO 8601 without milliseconds ('2026-12-01T00:00:00Z'), as the contract's examples write it. */
export function isoSeconds(instant: Date): string {
  const time = instant.getTime();
  // The same instant over and over: each usage answer names the next reset.
  if (time === lastIso.time) return lastIso.text;
  const text = instant.toISOString().replace(/\.\d{3}Z$/, 'Z');
  lastIso = { time, text };
  return text;
}
