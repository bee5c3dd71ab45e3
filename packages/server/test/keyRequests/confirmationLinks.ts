import type { ParsedMail } from 'mailparser';
import { confirmationLinkIn, post, tokenOfLink } from '../../src/testing/keyRequestClient.js';
import type { SmtpInbox } from '../../src/testing/smtpInbox.js';

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
