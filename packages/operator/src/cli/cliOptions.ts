import { InvalidArgumentError } from 'commander';
import { endOfDayUtc } from '@quotes/accounts/rules';

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

const isoDate = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export function isoInstant(option: string) {
  return (text: string): Date => {
    const trimmed = text.trim();
    const match = isoDate.exec(trimmed);
    // Times are UTC unless an offset is given, whatever the machine's time zone; a date alone is
    // the end of that day.
    const value = trimmed.length === 10 ? endOfDayUtc(trimmed) : new Date(match && !match[4] ? `${trimmed}Z` : trimmed);
    if (!match || Number.isNaN(value.getTime())) {
      throw new InvalidArgumentError(
        `${option} must be an ISO 8601 date or date-time, e.g. 2027-01-31 (to the end of that day, UTC) or 2027-01-31T12:00:00Z`,
      );
    }
    return value;
  };
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
  const instant = isoInstant(option);
  return (text: string): Date => {
    const trimmed = text.trim();
    if (trimmed.length !== 10) return instant(trimmed);
    const day = new Date(`${trimmed}T00:00:00Z`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(trimmed) || Number.isNaN(day.getTime()))
      throw new InvalidArgumentError(`${option} must be a date (YYYY-MM-DD) or an ISO 8601 date-time`);
    return edge === 'start' ? day : new Date(day.getTime() + 86_400_000);
  };
}
