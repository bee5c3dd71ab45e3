import { loadContract, rules } from '@quotes/contract';
import { describe, expect, it } from 'vitest';
import { allowancePeriod, earlierMonthsOf } from '../../src/domain/allowancePeriod.js';
import {
  afterRequestSentence,
  allowanceSentence,
  allowanceUsedSentence,
  planPriceSentence,
  priceSentence,
  resetSentence,
  trialArrival,
} from '../../src/domain/allowanceWording.js';
import { confirmationMessage } from '../../src/mail/keyRequestMessages.js';

const planOf = (id: string) => rules.planById.get(id)!;
const trialKey = { createdAt: new Date('2026-11-29T12:00:00Z'), expiresAt: new Date('2026-12-29T12:00:00Z') };

describe('the allowance period', () => {
  it("is a trial key's validity, across the 1st", () => {
    const now = new Date('2026-12-03T00:00:00Z');
    const period = allowancePeriod(planOf('trial'), trialKey, now);
    expect(period).toEqual({ start: trialKey.createdAt, end: trialKey.expiresAt });
    expect(earlierMonthsOf(period, now)).toEqual(['2026-11-01']);
    expect(earlierMonthsOf(period, new Date('2026-11-30T00:00:00Z'))).toEqual([]);
  });

  it("keeps the plan's days for a trial key without an expiry", () => {
    const period = allowancePeriod(planOf('trial'), { ...trialKey, expiresAt: null }, new Date('2026-12-01T00:00:00Z'));
    expect(period.end.toISOString()).toBe('2026-12-29T12:00:00.000Z');
  });

  it('is the calendar month in UTC on every other plan, with no earlier months', () => {
    const now = new Date('2026-12-03T00:00:00Z');
    for (const id of ['starter', 'professional', 'platform', 'enterprise']) {
      const period = allowancePeriod(planOf(id), trialKey, now);
      expect([period.start.toISOString(), period.end.toISOString()]).toEqual([
        '2026-12-01T00:00:00.000Z',
        '2027-01-01T00:00:00.000Z',
      ]);
      expect(earlierMonthsOf(period, now)).toEqual([]);
    }
  });
});

describe('the wording of allowances, prices and the trial', () => {
  it('says a trial is 1,000 calls over its 30 days and a monthly plan per month', () => {
    expect(rules.plans.map((plan) => allowanceSentence(plan))).toEqual([
      '1,000 calls over its 30 days',
      '10,000 calls a month',
      '50,000 calls a month',
      'unlimited calls a month',
      'calls set per key',
    ]);
    expect(rules.plans.map((plan) => priceSentence(plan.price))).toEqual([
      'free',
      '49 USD a month',
      'on request',
      '199 USD a month',
      'on request',
    ]);
    expect(resetSentence(planOf('trial'))).toMatch(/^Does not reset/);
    const end = new Date('2026-12-29T12:00:00Z');
    expect(allowanceUsedSentence(planOf('trial'), 1000, { start: trialKey.createdAt, end })).toBe(
      "All 1000 calls of this key's 30 days are used; the key expires at 2026-12-29T12:00:00Z.",
    );
  });

  it('tells a paid request its price and that the operator approves or rejects it by mail', () => {
    expect(`${planPriceSentence(planOf('starter'))} ${afterRequestSentence(planOf('starter'))}`).toBe(
      'The starter plan is 49 USD a month. Once your address is confirmed, the request waits for the operator, who approves it (the key is mailed to you) or rejects it, and tells you by mail within a few hours.',
    );
    expect(planPriceSentence(planOf('enterprise'))).toBe('The enterprise plan is priced on request.');
  });

  it('says how fast a trial arrives in one wording: the contract, the confirmation mail', () => {
    const description = String((loadContract().info as { description?: string }).description).replace(/\s+/g, ' ');
    expect(description).toContain(`a trial key is sent ${trialArrival}`);
    const mail = confirmationMessage({ email: 'ann@example.com', plan: 'trial' }, 'http://x/confirm', 24);
    expect(mail.text).toContain(`a trial key is sent to you ${trialArrival}`);
    const paid = confirmationMessage({ email: 'ann@example.com', plan: 'starter' }, 'http://x/confirm', 24);
    expect(paid.text).toContain('49 USD a month');
    for (const text of [description, mail.text]) expect(text).not.toMatch(/mailed at once|within minutes/);
  });
});
