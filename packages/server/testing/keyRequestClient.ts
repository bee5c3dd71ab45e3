import { request } from 'node:http';
import type { DatabaseHandle } from '@quotes/database';
import type { ParsedMail } from 'mailparser';
import { type RunningServer, type StartServerOptions, startServer } from '../src/startServer.js';
import type { SmtpInbox } from './smtpInbox.js';
import { testConfig } from './testConfig.js';

/**
 * The public pages' pace (PUBLIC_PAGES_PER_SECOND, 10 requests started a second as shipped)
 * lifted, for a test whose subject is not that pace: at 10 a second, the hundreds of posts of a
 * flood or a property run wait on it, a tenth of a second each, whatever they prove. The pace is
 * held as shipped by publicBulkhead.test.ts (and publicFlood.test.ts, timed); a test that lifts
 * it spreads this into its settings, so every such test says so the same way.
 */
export const unpacedPublicPages = { PUBLIC_PAGES_PER_SECOND: '10000' } as const;

/** A real server whose mail goes to a real SMTP server (SMTP_URL), configured as testConfig says. */
export function startServerMailingTo(
  database: DatabaseHandle,
  inbox: SmtpInbox,
  options: Partial<StartServerOptions> = {},
  /** Settings of the test's own, beside the inbox's (each named by the test, with why). */
  env: Record<string, string> = {},
): Promise<RunningServer> {
  return startServer({
    config: testConfig({ SMTP_URL: inbox.url, MAIL_FROM: 'Keys <keys@quotes.example.test>', ...env }),
    database,
    // Tests close their servers within 2 s.
    shutdownGraceMs: 2000,
    ...options,
  });
}

export interface PostAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/**
 * A POST from a chosen local address: every 127.x.y.z is this machine, so a test can send from
 * several client addresses and networks at once (`localAddress`).
 */
export function post(
  url: string,
  body: string,
  options: { contentType?: string; localAddress?: string; headers?: Record<string, string> } = {},
): Promise<PostAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        localAddress: options.localAddress,
        headers: {
          'Content-Type': options.contentType ?? 'application/json',
          'Content-Length': Buffer.byteLength(body),
          ...options.headers,
        },
        timeout: 10_000,
      },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => {
          text += chunk;
        });
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text }));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer from ${url} within 10 s`)));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

export const requestBody = (fields: Record<string, unknown>) =>
  JSON.stringify({
    name: 'Ann Lee',
    application: 'Quote widget',
    plan: 'trial',
    use: 'A quote of the day on our reading club page.',
    accept_terms: true,
    ...fields,
  });

/** The first message to an address whose subject matches, waiting for it (10 s at most). */
export async function mailTo(
  inbox: SmtpInbox,
  address: string,
  subject: RegExp,
  withinMs = 10_000,
): Promise<ParsedMail> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const found = inbox.messages.find(
      (mail) =>
        (Array.isArray(mail.to) ? mail.to : [mail.to]).some((to) => to?.text.toLowerCase() === address.toLowerCase()) &&
        subject.test(mail.subject ?? ''),
    );
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${address} matching ${subject} within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const confirmationLinkIn = (mail: ParsedMail) =>
  /https?:\/\/\S+\/keys\/confirm\?token=[A-Za-z0-9]+/.exec(mail.text ?? '')?.[0];
export const tokenOfLink = (link: string) => new URL(link).searchParams.get('token') ?? '';
export const keyIn = (mail: ParsedMail) => /qk_[A-Za-z0-9]{24}/.exec(mail.text ?? '')?.[0];
