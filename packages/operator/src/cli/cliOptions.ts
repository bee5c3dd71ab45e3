import { InvalidArgumentError } from 'commander';
import { type CalendarDate, dayAfter, endOfDay, readInstant, startOfDay } from '@quotes/accounts/rules';

/** Option parsers: bad input stops commander with a one-line message naming the option. */

export function wholeNumber(option: string, min: number, max: number) {
  return (text: string): number => {
    const value = Number(text);
    if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new InvalidArgumentError(`${option} must be a whole number from ${min} to ${max}`);
    }
    return value;
  };
}

const instantHint = 'e.g. 2027-01-31 (to the end of that day, UTC) or 2027-01-31T12:00:00Z';

/** A date alone or a date-time (domain/calendarDate.ts); an impossible day is refused, never rolled over. */
function instantOf(option: string, text: string, dateAlone: (date: CalendarDate) => Date): Date {
  const trimmed = text.trim();
  const reading = readInstant(trimmed, dateAlone);
  if (!('error' in reading)) return reading.value;
  // A value not shaped like a date at all gets the forms that are; an impossible one, why it is not.
  if (!/^\d{4}-\d{2}-\d{2}/.test(trimmed))
    throw new InvalidArgumentError(`${option} must be an ISO 8601 date or date-time, ${instantHint}`);
  throw new InvalidArgumentError(`${option} ${reading.error}`);
}

/** An expiry: a date alone is the end of that day (UTC); a date-time is UTC unless it gives an offset. */
export function isoInstant(option: string) {
  return (text: string): Date => instantOf(option, text, endOfDay);
}

export function yearMonth(option: string) {
  return (text: string): string => {
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(text))
      throw new InvalidArgumentError(`${option} must be YYYY-MM, e.g. 2026-11`);
    return text;
  };
}

/**
 * A bound of a range of days: a date alone is 00:00 UTC of that day (`start`) or of the next one
 * (`end`, so `--to 2026-11-30` includes the 30th); a date-time is taken as it is (UTC unless an
 * offset is given).
 */
export function dayBound(option: string, edge: 'start' | 'end') {
  return (text: string): Date => instantOf(option, text, edge === 'start' ? startOfDay : dayAfter);
}
