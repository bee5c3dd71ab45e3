import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../testing/testServer.js';
import { startTwoServers, type TwoServers } from '../support/twoServers.js';

// quotes-usage answers with the calls every server has written (each every COUNT_FLUSH_MS) and
// the calls its own server counted since: exact on the server that served them, and on another
// server one flush interval later at most.
let servers: TwoServers;
let counting: TestServer;
let reporting: TestServer;

/** COUNT_FLUSH_MS of the test servers (the default), and the time a flush's round may take on a busy machine. */
const flushMs = 200;
const roundMarginMs = 300;

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
  it('reports every call at once on the server that served it, and on the other within one flush interval', async () => {
    // Platform: twelve reads at once stay within the share of its burst limit each server holds.
    const issued = await counting.createKey({ plan: 'platform' });
    let slowest = 0;
    for (let call = 1; call <= 8; call++) {
      expect((await counting.call('/v1/quotes-random', { key: issued.key })).status).toBe(200);
      const answered = performance.now();
      expect(await usageCalls(counting, issued.key)).toBe(call);
      // A burst of concurrent reads on the other server: never more than were served, and all
      // of them once the serving server has flushed.
      for (;;) {
        const reads = await Promise.all(Array.from({ length: 12 }, () => usageCalls(reporting, issued.key)));
        expect(Math.max(...reads)).toBeLessThanOrEqual(call);
        if (reads.every((read) => read === call)) break;
        expect(performance.now() - answered).toBeLessThan(flushMs + roundMarginMs);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      slowest = Math.max(slowest, performance.now() - answered);
    }
    console.info(
      `quotes-usage on the other server caught up within ${Math.round(slowest)} ms (COUNT_FLUSH_MS ${flushMs})`,
    );
  });

  it('is exact on both once both servers have flushed, while calls were counted on both at once', async () => {
    // Enterprise: 60 calls at once are beyond any other plan's burst limit.
    const issued = await counting.createKey({ plan: 'enterprise', unlimited: true });
    const counted = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 === 0 ? counting : reporting).call('/v1/quotes-random?category=a', { key: issued.key }),
      ),
    );
    expect(counted.every((answer) => answer.status === 200)).toBe(true);
    await Promise.all([counting.flushCounts(), reporting.flushCounts()]);
    const reads = await Promise.all(
      Array.from({ length: 20 }, (_, i) => usageCalls(i % 2 === 0 ? counting : reporting, issued.key)),
    );
    expect(reads).toEqual(Array(20).fill(60));
    expect((await counting.operator.usage(issued.id)).calls).toBe(60);
  });
});
