import { trialArrival } from '@quotes/accounts/rules';
import { describe, expect, it } from 'vitest';
import { requestFormPage, termsPage } from '../src/keyRequestPages.js';

const text = (page: string) => page.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');

describe('what the form and the terms say of the plans', () => {
  it.each([
    ['the form', requestFormPage()],
    ['the terms', termsPage()],
  ])("%s: each plan's allowance and price, what happens after a paid request, the trial's arrival", (_name, page) => {
    const words = text(page);
    expect(words).toContain('trial: 1,000 calls over its 30 days; free.');
    expect(words).toContain('starter: 10,000 calls a month; 49 USD a month.');
    expect(words).toContain('platform: unlimited calls a month; 199 USD a month.');
    expect(words).toContain('professional: 50,000 calls a month; on request.');
    expect(words).toContain(
      'the request waits for the operator, who approves it (the key is mailed to you) or rejects it',
    );
    expect(words).toContain(`sent ${trialArrival}`);
    expect(words).not.toMatch(/1,000 calls over 30 days|mailed at once|granted at once|within minutes/);
  });

  it("labels each plan's option with its allowance and price", () => {
    const form = requestFormPage();
    expect(form).toContain(
      `<option value="trial" selected>trial: 1,000 calls over its 30 days, free (sent ${trialArrival})</option>`,
    );
    expect(form).toContain(
      '<option value="starter">starter: 10,000 calls a month, 49 USD a month (the operator decides)</option>',
    );
  });
});
