import { describe, expect, it } from 'vitest';
import { rules } from '@quotes/contract';
import { allowanceHeaders, allowanceWindow, exhaustedHeaders } from '../../src/domain/allowanceHeaders.js';
import { calendarMonthOf, isoSeconds, parseMonth, secondsInMonth, secondsUntilReset } from '@quotes/accounts/rules';
import { usageSummary } from '../../src/domain/responseBodies.js';

describe('calendar months in UTC', () => {
  it('keys a month by its first day and resets at 00:00 UTC on the 1st', () => {
    const month = calendarMonthOf(new Date('2026-11-30T23:59:59.999Z'));
    expect(month.key).toBe('2026-11-01');
    expect(isoSeconds(month.next)).toBe('2026-12-01T00:00:00Z');
    expect(calendarMonthOf(new Date('2026-12-01T00:00:00Z')).key).toBe('2026-12-01');
  });

  it('answers each instant with its own month when asked in any order (the last month is remembered)', () => {
    const instants = [
      '2026-11-30T23:59:59.999Z',
      '2026-12-01T00:00:00.000Z',
      '2026-11-01T00:00:00.000Z',
      '2026-10-31T23:59:59.999Z',
      '2026-11-15T12:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
      '2026-12-31T23:59:59.999Z',
    ];
    for (const instant of instants) {
      const month = calendarMonthOf(new Date(instant));
      expect(month.key).toBe(`${instant.slice(0, 7)}-01`);
      expect(month.start.getTime()).toBeLessThanOrEqual(Date.parse(instant));
      expect(month.next.getTime()).toBeGreaterThan(Date.parse(instant));
      expect(isoSeconds(month.start)).toBe(`${instant.slice(0, 7)}-01T00:00:00Z`);
    }
    expect(isoSeconds(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11-30T23:59:59Z');
    expect(() => calendarMonthOf(new Date(Number.NaN)).start.toISOString()).toThrow(RangeError);
    expect(calendarMonthOf(new Date('2026-11-15T00:00:00Z')).key).toBe('2026-11-01');
  });

  it('rolls over the year', () => {
    expect(isoSeconds(calendarMonthOf(new Date('2026-12-15T12:00:00Z')).next)).toBe('2027-01-01T00:00:00Z');
  });

  it('ignores the local time zone of the instant (a UTC+14 evening is still the UTC month)', () => {
    expect(calendarMonthOf(new Date('2026-12-01T09:00:00+14:00')).key).toBe('2026-11-01');
  });

  it('counts the seconds of a month, leap years included', () => {
    expect(secondsInMonth(calendarMonthOf(new Date('2028-02-10T00:00:00Z')))).toBe(29 * 86400);
    expect(secondsInMonth(calendarMonthOf(new Date('2026-11-10T00:00:00Z')))).toBe(30 * 86400);
  });

  it('rounds the wait until the reset up', () => {
    expect(secondsUntilReset(new Date('2026-11-30T23:59:59.200Z'))).toBe(1);
    expect(secondsUntilReset(new Date('2026-11-30T00:00:00Z'))).toBe(86400);
  });

  it('parses YYYY-MM only', () => {
    expect(parseMonth('2026-02')?.key).toBe('2026-02-01');
    expect(parseMonth('2026-13')).toBeUndefined();
    expect(parseMonth('2026-2')).toBeUndefined();
  });
});

const planOf = (id: string) => rules.planById.get(id)!;
const monthKey = { createdAt: new Date('2026-01-01T00:00:00Z'), expiresAt: null };

describe('allowance headers', () => {
  const now = new Date('2026-11-23T00:00:00Z');
  const month = allowanceWindow(planOf('starter'), monthKey, now);

  it('carry both the draft-11 fields and the X-RateLimit trio', () => {
    expect(allowanceHeaders({ limit: 10000, used: 4213 }, month, now)).toEqual({
      'RateLimit-Policy': '"monthly";q=10000;w=2592000',
      RateLimit: '"monthly";r=5787;t=691200',
      'X-RateLimit-Limit': '10000',
      'X-RateLimit-Remaining': '5787',
      'X-RateLimit-Reset': '1796083200',
    });
  });

  it('send only the reset without a limit, inventing no number', () => {
    expect(allowanceHeaders({ limit: null, used: 123 }, month, now)).toEqual({ 'X-RateLimit-Reset': '1796083200' });
  });

  it('add Retry-After when the allowance is used up', () => {
    const headers = exhaustedHeaders(1000, month, now);
    expect(headers['Retry-After']).toBe('691200');
    expect(headers['X-RateLimit-Remaining']).toBe('0');
    expect(headers.RateLimit).toBe('"monthly";r=0;t=691200');
  });

  it("run to a trial's expiry over its 30 days, not to the 1st", () => {
    const trial = { createdAt: new Date('2026-11-20T00:00:00Z'), expiresAt: new Date('2026-12-20T00:00:00Z') };
    const headers = exhaustedHeaders(1000, allowanceWindow(planOf('trial'), trial, now), now);
    expect(headers['Retry-After']).toBe(String(27 * 86400));
    expect(headers['RateLimit-Policy']).toBe('"validity";q=1000;w=2592000');
    expect(headers['X-RateLimit-Reset']).toBe(String(Date.parse('2026-12-20T00:00:00Z') / 1000));
  });
});

describe('usage summary', () => {
  const now = new Date('2026-11-22T00:00:00Z');
  const summary = (planId: string, calls: number, limit: number | null) =>
    usageSummary({
      client: 'c',
      plan: planOf(planId),
      callsThisMonth: calls,
      callsInPeriod: calls,
      limit,
      period: allowanceWindow(planOf(planId), monthKey, now),
    });

  it('rounds the percentage down and says when the allowance resets', () => {
    expect({ ...summary('starter', 4213, 10000), client: 'Lanternfish Books' }).toEqual({
      client: 'Lanternfish Books',
      tier: 'starter',
      calls_this_month: 4213,
      calls_in_period: 4213,
      call_limit: 10000,
      calls_remaining: 5787,
      usage_pct: 42,
      resets: 'Resets at 00:00 UTC on the 1st of each month',
      period_start: '2026-11-01T00:00:00Z',
      resets_at: '2026-12-01T00:00:00Z',
    });
    expect(summary('trial', 999, 1000).usage_pct).toBe(99);
  });

  it('has no limit, remainder or percentage on an unlimited plan', () => {
    const unlimited = summary('platform', 5_000_000, null);
    expect([unlimited.call_limit, unlimited.calls_remaining, unlimited.usage_pct]).toEqual([null, null, 0]);
  });

  it('treats a zero allowance as used up', () => {
    expect(summary('enterprise', 0, 0).usage_pct).toBe(100);
  });
});
