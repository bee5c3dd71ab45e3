import { describe, expect, it } from 'vitest';
import {
  dayAfter,
  endOfDay,
  readCalendarDate,
  readDateTime,
  readInstant,
  startOfDay,
} from '../../src/domain/calendarDate.js';

describe('calendar dates', () => {
  it.for([
    ['2027-02-30', '2027-02-30 is not a date: February 2027 has 28 days'],
    ['2026-02-29', '2026-02-29 is not a date: February 2026 has 28 days'],
    ['2027-04-31', '2027-04-31 is not a date: April 2027 has 30 days'],
    ['2027-13-01', '2027-13-01 is not a date: a month is 01 to 12'],
    ['2027-00-10', '2027-00-10 is not a date: a month is 01 to 12'],
    ['2027-01-00', '2027-01-00 is not a date: January 2027 has 31 days'],
    ['27-1-1', '"27-1-1" is not a date (YYYY-MM-DD)'],
  ])('refuses %s in one line naming it', ([text, error]) => {
    expect(readCalendarDate(text!)).toEqual({ error });
  });

  it('takes every day that exists, leap days and years 0-99 included', () => {
    expect(readCalendarDate('2028-02-29')).toEqual({ value: { year: 2028, month: 2, day: 29, text: '2028-02-29' } });
    expect(readCalendarDate('2000-02-29')).toMatchObject({ value: { day: 29 } });
    expect(readCalendarDate('1900-02-29')).toMatchObject({ error: expect.stringContaining('has 28 days') });
    const date = (readCalendarDate('0099-12-31') as { value: Parameters<typeof startOfDay>[0] }).value;
    expect(startOfDay(date).toISOString()).toBe('0099-12-31T00:00:00.000Z');
    const leap = (readCalendarDate('2028-02-29') as { value: Parameters<typeof startOfDay>[0] }).value;
    expect(endOfDay(leap).toISOString()).toBe('2028-02-29T23:59:59.000Z');
    expect(dayAfter(leap).toISOString()).toBe('2028-03-01T00:00:00.000Z');
  });

  it('reads date-times whose day and time exist, UTC unless an offset is given', () => {
    expect(readDateTime('2027-01-31T12:00:00Z')).toEqual({ value: new Date('2027-01-31T12:00:00Z') });
    expect(readDateTime('2027-01-31 12:00')).toEqual({ value: new Date('2027-01-31T12:00:00Z') });
    expect(readDateTime('2027-01-31T12:00:00.250+0530')).toEqual({ value: new Date('2027-01-31T06:30:00.250Z') });
    expect(readDateTime('2027-02-30T23:59:59Z')).toEqual({
      error: '2027-02-30T23:59:59Z is not a date-time: February 2027 has 28 days',
    });
    expect(readDateTime('2027-01-01T24:00:00Z')).toEqual({
      error: '2027-01-01T24:00:00Z is not a time of day: 00:00:00 to 23:59:59',
    });
    expect(readDateTime('2027-01-01T10:00:00+25:00')).toMatchObject({ error: expect.stringContaining('UTC offset') });
    expect(readDateTime('2027-01-01')).toBeUndefined();
    expect(readInstant('2027-01-01', endOfDay)).toEqual({ value: new Date('2027-01-01T23:59:59Z') });
    expect(readInstant('next tuesday', endOfDay)).toEqual({ error: '"next tuesday" is not a date (YYYY-MM-DD)' });
  });
});
