import type { IssuedKey } from '@quotes/accounts';
import type { TestServer } from '@quotes/server/testing';

/** A client name that is markup: the console must show it as text. */
export const markupClient = '<img src=x onerror=alert(1)>';

export interface ConsoleTraffic {
  reader: IssuedKey;
  markup: IssuedKey;
  /** Served calls sent today, by all keys. */
  served: number;
}

/**
 * Real calls to a real server, served and refused, then its counts and usage history written: what the
 * console's overview and key pages draw.
 */
export async function sendConsoleTraffic(server: TestServer): Promise<ConsoleTraffic> {
  const reader = await server.createKey({ plan: 'starter', client: 'Reader App', email: 'reader@example.com' });
  const markup = await server.createKey({ plan: 'professional', client: markupClient, email: 'markup@example.com' });
  const calls: Promise<{ status: number }>[] = [];
  for (let index = 0; index < 12; index++) calls.push(server.call('/v1/quotes-random', { key: reader.key }));
  for (let index = 0; index < 6; index++)
    calls.push(server.call(`/v1/quotes-filter?limit=5&offset=${index * 5}`, { key: markup.key }));
  // Refusals: an unknown key, and a browser origin the key does not allow.
  for (let index = 0; index < 3; index++)
    calls.push(server.call('/v1/quotes-random', { key: `qk_${'0'.repeat(24)}`, unchecked: true }));
  for (let index = 0; index < 2; index++)
    calls.push(server.call('/v1/quotes-random', { key: reader.key, headers: { Origin: 'https://elsewhere.example' } }));
  const answers = await Promise.all(calls);
  await Promise.all([server.flushUsageHistory(), server.flushCounts()]);
  return { reader, markup, served: answers.filter((answer) => answer.status === 200).length };
}
