/**
 * Dates and instants as the operator writes them, in UTC: the one rule for every surface (CLI
 * options, console forms). A day that does not exist (2027-02-30, 2027-04-31, 2026-02-29) is
 * refused, where JavaScript's Date would quietly roll it over into the next month.
 */

export interface CalendarDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  /** 'YYYY-MM-DD' */
  readonly text: string;
}

/** Either the value read, or one line saying why not (naming the value, not the field). */
export type Reading<T> = { value: T } | { error: string };

/** The months' English names, January first. */
export const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** 00:00 UTC of a day; setUTCFullYear, unlike Date.UTC, takes years 0-99 as written. */
function utcMidnight(year: number, month: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date;
}

export function daysInMonth(year: number, month: number): number {
  return utcMidnight(year, month + 1, 0).getUTCDate();
}

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Why a day written as digits does not exist, or null when it does. */
function missingDay(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12) return 'a month is 01 to 12';
  const days = daysInMonth(year, month);
  return day < 1 || day > days ? `${monthNames[month - 1]} ${year} has ${days} days` : null;
}

/** A day written `YYYY-MM-DD` that exists in the Gregorian calendar. */
export function readCalendarDate(text: string): Reading<CalendarDate> {
  const match = datePattern.exec(text.trim());
  if (!match) return { error: `${JSON.stringify(text)} is not a date (YYYY-MM-DD)` };
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const problem = missingDay(year, month, day);
  if (problem) return { error: `${match[0]} is not a date: ${problem}` };
  return { value: { year, month, day, text: match[0] } };
}

/** 00:00:00 UTC of the day. */
export function startOfDay(date: CalendarDate): Date {
  return utcMidnight(date.year, date.month, date.day);
}

/**
 * 23:59:59 UTC of the day: an expiry given as a date alone keeps the key working through that
 * whole day, as operators and customers read "until the 30th".
 */
export function endOfDay(date: CalendarDate): Date {
  return new Date(startOfDay(date).getTime() + 86_399_000);
}

/** 00:00:00 UTC of the day after: the end of a range of days that includes this one. */
export function dayAfter(date: CalendarDate): Date {
  return new Date(startOfDay(date).getTime() + 86_400_000);
}

const instantPattern = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))?$/i;

/**
 * An ISO 8601 date-time (`2027-01-31T12:00`, seconds, fraction and offset optional; UTC unless
 * an offset is given) whose day exists and whose time is 00:00:00 to 23:59:59; `undefined` when
 * the text is not shaped like one at all, so a caller can try a date alone.
 */
export function readDateTime(text: string): Reading<Date> | undefined {
  const match = instantPattern.exec(text.trim());
  if (!match) return undefined;
  const [, dateText, hours, minutes, seconds = '00', fraction = '', zone, zoneHours, zoneMinutes] =
    match as unknown as [
      string,
      string,
      string,
      string,
      string | undefined,
      string | undefined,
      string | undefined,
      string | undefined,
      string | undefined,
    ];
  const [year, month, day] = dateText.split('-').map(Number) as [number, number, number];
  const problem = missingDay(year, month, day);
  if (problem) return { error: `${match[0]} is not a date-time: ${problem}` };
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 59)
    return { error: `${match[0]} is not a time of day: 00:00:00 to 23:59:59` };
  if (zoneHours !== undefined && (Number(zoneHours) > 23 || Number(zoneMinutes) > 59))
    return { error: `${match[0]} has no such UTC offset: -23:59 to +23:59` };
  const offset = zone === undefined || zone.toUpperCase() === 'Z' ? 'Z' : `${zone[0]}${zoneHours}:${zoneMinutes}`;
  const instant = new Date(`${dateText}T${hours}:${minutes}:${seconds}${fraction.slice(0, 4)}${offset}`);
  if (Number.isNaN(instant.getTime())) return { error: `${match[0]} is not a date-time this service can hold` };
  return { value: instant };
}

/**
 * A date-time, or a date alone made an instant by `dateAlone` (startOfDay, endOfDay, dayAfter):
 * the reading the CLI's date options and the console's date fields share.
 */
export function readInstant(text: string, dateAlone: (date: CalendarDate) => Date): Reading<Date> {
  const dateTime = readDateTime(text);
  if (dateTime) return dateTime;
  const date = readCalendarDate(text);
  return 'error' in date ? date : { value: dateAlone(date.value) };
}
