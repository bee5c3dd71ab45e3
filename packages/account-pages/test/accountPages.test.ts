import type { HolderKey } from '@quotes/accounts';
import { describe, expect, it } from 'vitest';
import { keyPage, keysPage, rolledPage } from '../src/keyPages.js';
import { signInFormPage } from '../src/signInPages.js';

const signed = { csrfToken: 'csrf-token-of-the-session' };

const key: HolderKey = {
  id: 'k_abc',
  prefix: 'qk_AbCd1234',
  client: 'Reader <script>alert(1)</script>',
  email: 'ann@example.com',
  plan: 'starter',
  state: 'active',
  monthlyCalls: 10_000,
  maxLimit: 50,
  filtersPerCall: 3,
  faithFilter: false,
  expiresAt: null,
  revokedAt: null,
  revokedBecause: null,
  createdAt: '2026-11-01T00:00:00Z',
  allowedOrigins: ['https://a.example'],
  previousSecretUntil: null,
  usage: {
    keyId: 'k_abc',
    prefix: 'qk_AbCd1234',
    state: 'active',
    client: 'Reader',
    plan: 'starter',
    month: '2026-11',
    calls: 1234,
    limit: 10_000,
    remaining: 8766,
    periodStart: '2026-11-01T00:00:00Z',
    periodEnd: '2026-12-01T00:00:00Z',
  },
  resets: '2026-12-01T00:00:00Z',
  resetWords: 'Resets at 00:00 UTC on the 1st of each month',
  allowanceMails: true,
};

describe('the pages of /account', () => {
  it('escapes what holders and strangers typed, on every page', () => {
    for (const page of [
      keysPage(signed, [key], []),
      keyPage(signed, key, {
        charts: [],
        refusals: [],
        refusalsTitle: 'Refused calls, last 30 days (UTC)',
        requests: [],
      }),
      keyPage(signed, key, {
        charts: [],
        refusals: [],
        refusalsTitle: 'Refused calls, last 30 days (UTC)',
        requests: [],
        problem: { form: 'origins', message: '"<b>x" is not an origin' },
        values: { origins: '</textarea><script>x</script>' },
      }),
    ]) {
      expect(page).not.toContain('<script>');
      expect(page).toContain('Reader &lt;script&gt;');
    }
    const form = signInFormPage('form-token', { message: 'not <an> address', email: '"><img src=x>' });
    expect(form).not.toContain('<img');
    expect(form).toContain('not &lt;an&gt; address');
  });

  it('puts the session CSRF token in every form of a signed-in page', () => {
    const page = keyPage(signed, key, {
      charts: [],
      refusals: [],
      refusalsTitle: 'Refused calls, last 30 days (UTC)',
      requests: [],
    });
    const forms = page.match(/<form /g)!.length;
    expect(forms).toBe(6); // sign out, roll, origins, request, allowance mails, close
    expect(page.match(/name="_csrf" value="csrf-token-of-the-session"/g)).toHaveLength(forms);
  });

  it('shows the allowance used and left, and a closed key without actions', () => {
    expect(keysPage(signed, [key], [])).toMatch(
      /1,234 used, 8,766 left of 10,000, until <time datetime="2026-12-01[^"]*">2026-12-01/,
    );
    const closed = keyPage(
      signed,
      { ...key, state: 'revoked', revokedBecause: 'requested by you' },
      {
        charts: [],
        refusals: [],
        refusalsTitle: 'Refused calls, last 30 days (UTC)',
        requests: [],
      },
    );
    expect(closed).toContain('closed (requested by you)');
    expect(closed).not.toContain('Roll the key</button>');
  });

  it('shows a rolled secret once, with when the old one stops', () => {
    const page = rolledPage(signed, {
      id: 'k_abc',
      key: 'qk_NewSecret',
      client: 'Reader',
      plan: 'starter',
      expires_at: null,
      prefix: 'qk_NewSecr',
      previousSecretUntil: '2026-11-27T11:00:00Z',
      previousSecretIs: 'replaced',
    });
    expect(page).toContain('<p class="secret" id="new-key">qk_NewSecret</p>');
    expect(page).toContain('The secret it replaced keeps working until 2026-11-27T11:00:00Z');
    expect(page).toContain('Reader (k_abc)');
  });
});
