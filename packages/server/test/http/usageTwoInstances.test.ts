import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/testServer.js';
import { startTwoServers, type TwoServers } from '../support/twoServers.js';

// quotes-usage reads share statements within a server (monthlyUsage.ts); across two servers on
// one database every answer must still be the exact count at the time of the call.
let servers: TwoServers;
let counting: TestServer;
let reporting: TestServer;

beforeAll(async () => {
  servers = await startTwoServers();
  ({ first: counting, second: reporting } = servers);
});
afterAll(() => servers?.close());

async function usageCalls(server: TestServer, key: string): Promise<number> {
  const answer = await server.call('/v1/quotes-usage', { key });
  expect(answer.status).toBe(200);
  return (answer.body as { calls_this_month: number }).calls_this_month;
}

describe('quotes-usage on two servers sharing one database', () => {
  it('reports, on one server, every call the other counted before it was asked', async () => {
    // Platform: twelve reads at once stay within the share of its burst limit each server holds.
    const issued = await counting.createKey({ plan: 'platform' });
    for (let call = 1; call <= 15; call++) {
      expect((await counting.call('/v1/quotes-random', { key: issued.key })).status).toBe(200);
      // A burst of concurrent reads on the other server: all share statements, all exact.
      const reads = await Promise.all(Array.from({ length: 12 }, () => usageCalls(reporting, issued.key)));
      expect(reads).toEqual(Array(12).fill(call));
    }
  });

  it('stays exact while calls are being counted on both servers at once', async () => {
    // Enterprise: 60 calls at once are beyond any other plan's burst limit.
    const issued = await counting.createKey({ plan: 'enterprise' });
    const counted = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 === 0 ? counting : reporting).call('/v1/quotes-random?category=a', { key: issued.key }),
      ),
    );
    expect(counted.every((answer) => answer.status === 200)).toBe(true);
    const reads = await Promise.all(
      Array.from({ length: 20 }, (_, i) => usageCalls(i % 2 === 0 ? counting : reporting, issued.key)),
    );
    expect(reads).toEqual(Array(20).fill(60));
    expect((await counting.operator.usage(issued.id)).calls).toBe(60);
  });
});
