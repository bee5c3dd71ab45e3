import { describe, expect, it } from 'vitest';
import { holderApprovedMessage, holderRejectedMessage, signInMessage } from '../../src/mail/accountMessages.js';
import {
  expiryNoticeMessage,
  planChangedMessage,
  revocationMessage,
  rollNoticeMessage,
  usageAlertMessage,
} from '../../src/mail/holderMessages.js';
import {
  confirmationMessage,
  digestMessage,
  receivedMessage,
  rejectionMessage,
  requestsWaitingMessage,
} from '../../src/mail/keyRequestMessages.js';
import type { MailMessage } from '../../src/mail/mailer.js';
import { keyMessage, usageSignalsMessage } from '../../src/mail/operatorMessages.js';
import type { KeyView, UsageAlert } from '../../src/operator/operatorTypes.js';

// Every mail the service sends, built by the one builder: an HTML part whose links are anchors
// and whose key is in a fixed-width face, and a plain-text twin that says the same words.

const base = 'https://quotes.example';
const key = { id: 'k_abc', prefix: 'qk_ab', client: 'Reading <b>nook</b>', plan: 'starter', email: 'a@example.org' };
const request = { id: 'r_1', email: 'a@example.org', name: 'Ann', application: 'Nook', plan: 'starter' };
const view: KeyView = {
  ...key,
  state: 'active',
  monthlyCalls: 10_000,
  maxLimit: 25,
  filtersPerCall: 2,
  faithFilter: false,
  expiresAt: '2027-06-30T23:59:59Z',
  revokedAt: null,
  revokedReason: null,
  revokedCategory: null,
  createdAt: '2026-11-01T00:00:00Z',
  allowedOrigins: [],
  previousSecretUntil: null,
};
const issued = {
  id: 'k_abc',
  key: 'qk_abcdefghijklmnopqrstuvwx',
  client: key.client,
  plan: 'starter',
  expires_at: null,
};
const alert = {
  keyId: 'k_abc',
  prefix: 'qk_ab',
  client: key.client,
  plan: 'starter',
  email: key.email,
  calls: 8000,
  limit: 10_000,
  threshold: 80,
  percent: 80,
  periodStart: '2026-11-01T00:00:00Z',
  periodEnd: '2026-12-01T00:00:00Z',
  expiresAt: null,
  sent: false,
  mails: true,
} as unknown as UsageAlert;
const decision = {
  to: key.email,
  requestId: 'r_2',
  kind: 'renewal' as const,
  keyPrefix: 'qk_ab',
  accountUrl: `${base}/account`,
};

const mails: Record<string, MailMessage> = {
  confirmation: confirmationMessage(request, `${base}/keys/confirm?token=t`, 24),
  received: receivedMessage(request, ['a reason']),
  rejection: rejectionMessage(request, 'abuse'),
  digest: digestMessage('op@example.org', [{ ...request, createdAt: '2026-11-27T10:00:00Z', reasons: [] }]),
  waiting: requestsWaitingMessage('op@example.org', 2, 15),
  signIn: signInMessage(key.email, `${base}/account/sign-in?token=t`, 15),
  approved: holderApprovedMessage(decision, { plan: 'starter', expiresAt: null }),
  rejected: holderRejectedMessage(decision, 'other'),
  allowance: usageAlertMessage(alert, base),
  expiry: expiryNoticeMessage(key, '2027-06-30T23:59:59Z', base),
  revocation: revocationMessage(key, '2026-11-27T10:00:00Z', 'abuse', 'op@example.org', base),
  close: revocationMessage(key, '2026-11-27T10:00:00Z', 'requested-by-holder', undefined, base),
  roll: rollNoticeMessage(
    {
      key,
      rolledAt: '2026-11-27T10:00:00Z',
      newPrefix: 'qk_cd',
      previousSecretUntil: '2026-11-27T11:00:00Z',
      previousSecretIs: 'replaced',
    },
    base,
  ),
  planChanged: planChangedMessage(key, { from: 'trial', allowance: '10,000 calls a month', expiresAt: null }, base),
  key: keyMessage({ ...issued, prefix: 'qk_ab' }, view, base, false),
  signals: usageSignalsMessage(
    [
      {
        subject: 'k_abc',
        signal: 'sweep',
        evidence: 'see http://evil.test',
        involves: { keys: ['k_abc'], requests: [] },
      },
    ] as never,
    '2026-11',
    'op@example.org',
  ),
};

const entities: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'" };
/** What a reader sees of the HTML part: its text without tags, entities read. */
const seen = (markup: string) =>
  markup.replace(/<[^>]+>/g, ' ').replace(/&(lt|gt|amp|quot|#39);/g, (entity) => entities[entity]!);
/** The words of a part, punctuation and layout aside. */
const words = (text: string) => text.split(/[^\p{L}\p{N}_@./?=&<>"'-]+/u).filter((word) => word !== '');
const urlsIn = (text: string) => (text.match(/https?:\/\/[^\s"<>]+/g) ?? []).map((url) => url.replace(/[.,:)]+$/, ''));

describe('every mail, built once', () => {
  it.each(Object.entries(mails))('%s: an HTML part saying the words of its text twin', (_name, mail) => {
    expect(mail.html).toMatch(/^<!doctype html><html><body /);
    expect(words(seen(mail.html!))).toEqual(words(mail.text));
  });

  it.each(Object.entries(mails))(
    '%s: each address in the text is an anchor of the HTML, or fixed-width text to copy',
    (_name, mail) => {
      for (const url of urlsIn(mail.text)) {
        const escaped = url.replace(/&/g, '&amp;');
        const anchored = mail.html!.includes(`<a href="${escaped}">${escaped}</a>`);
        const copied = new RegExp(
          `<(code|pre) style="font-family: ui-monospace[^"]*">[^<]*${escaped.replace(/[.?*+()[\]\\^$|]/g, '\\$&')}`,
        ).test(mail.html!);
        expect(anchored || copied, `${url} in ${mail.html}`).toBe(true);
      }
    },
  );

  it('shows the key in a fixed-width face in the HTML, and alone on an indented line in the text', () => {
    expect(mails.key!.html).toContain(
      '<code id="key" style="font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 15px;',
    );
    expect(mails.key!.html).toContain(`>${issued.key}</code>`);
    expect(mails.key!.text).toContain(`\n\n  ${issued.key}\n\n`);
    // A stranger's text is escaped in the HTML and left as typed in the text.
    expect(mails.key!.html).toContain('Reading &lt;b&gt;nook&lt;/b&gt;');
    expect(mails.key!.text).toContain('Reading <b>nook</b>');
    // The strangers' evidence stays unlinked in the operator's mail.
    expect(mails.signals!.html).not.toContain('<a href="http://evil');
    expect(mails.signals!.text).toContain('hxxp[:]//evil[.]test');
  });
});
