import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll } from 'vitest';
import type { RunningServer } from '../../src/startServer.js';
import { confirmationLinkIn, post, startServerMailingTo, tokenOfLink } from '../../testing/keyRequestClient.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';

/** Every address a message went to, lower case. */
export const recipientsOf = (mail: ParsedMail): string[] =>
  (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap(
    (to) => to?.value.map((one) => one.address?.toLowerCase() ?? '') ?? [],
  );

/**
 * The tokens of the confirmation links mailed to addresses `belongs` picks, waiting until
 * `count` have arrived (one address may have asked several times: each of its links counts).
 */
export async function confirmationTokens(
  inbox: SmtpInbox,
  belongs: (address: string) => boolean,
  count: number,
  withinMs = 15_000,
): Promise<string[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const tokens = inbox.messages
      .filter((mail) => /^Confirm your request/.test(mail.subject ?? '') && recipientsOf(mail).some(belongs))
      .map((mail) => tokenOfLink(confirmationLinkIn(mail) ?? 'http://x/'));
    if (tokens.length >= count) return tokens;
    if (Date.now() > deadline) throw new Error(`${tokens.length} of ${count} confirmation links after ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Presses "Confirm" on a link's page, as the browser's form does. */
export const pressConfirm = (serverUrl: string, token: string, from = '127.0.0.1') =>
  post(`${serverUrl}/keys/confirm`, new URLSearchParams({ token }).toString(), {
    contentType: 'application/x-www-form-urlencoded',
    localAddress: from,
  });

/** The service of one test file: its own database, a real SMTP inbox, the server mailing to it; started before the file's tests, stopped after. */
export function keyRequestService(): {
  readonly database: TestDatabase;
  readonly inbox: SmtpInbox;
  readonly server: RunningServer;
} {
  const held = {} as { database: TestDatabase; inbox: SmtpInbox; server: RunningServer };
  beforeAll(async () => {
    [held.database, held.inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
    held.server = await startServerMailingTo(held.database, held.inbox);
  });
  afterAll(async () => {
    await held.server?.close();
    await held.inbox?.close();
    await held.database?.drop();
  });
  return held;
}
