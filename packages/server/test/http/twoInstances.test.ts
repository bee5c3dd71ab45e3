import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, untilStatus } from '../../testing/testServer.js';
import { startTwoServers, type TwoServers } from '../support/twoServers.js';

// Two servers on one database, each with its own pool, caches and notification connection:
// what two processes behind a load balancer would be.
let servers: TwoServers;
let first: TestServer;
let second: TestServer;

beforeAll(async () => {
  servers = await startTwoServers();
  ({ first, second } = servers);
});
afterAll(() => servers?.close());

describe('two server instances on one database', () => {
  it("share one key's allowance exactly", async () => {
    const issued = await first.createKey({ plan: 'enterprise', monthlyCalls: 160 });
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        (i % 2 === 0 ? first : second).call('/v1/quotes-random?category=a', { key: issued.key }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(160);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(140);
    // Both instances served part of it.
    expect(answers.filter((answer, i) => i % 2 === 1 && answer.status === 200).length).toBeGreaterThan(0);
    expect(answers.filter((answer, i) => i % 2 === 0 && answer.status === 200).length).toBeGreaterThan(0);
    await Promise.all([first.flushCounts(), second.flushCounts()]);
    expect((await first.operator.usage(issued.id)).calls).toBe(160);
  });

  it('both refuse a revoked key within one second', async () => {
    const issued = await first.createKey({ plan: 'starter' });
    // Both have the key cached.
    expect((await first.call('/v1/quotes-usage', { key: issued.key })).status).toBe(200);
    expect((await second.call('/v1/quotes-usage', { key: issued.key })).status).toBe(200);
    // Revoked through neither server: as the CLI does, from another process.
    const { createOperatorApi } = await import('@quotes/accounts');
    await createOperatorApi(servers.database).revokeKey(issued.id, 'compromised');
    const [onFirst, onSecond] = await Promise.all([
      untilStatus(first, issued.key, 403, 1000),
      untilStatus(second, issued.key, 403, 1000),
    ]);
    expect(onFirst).toBeLessThan(1000);
    expect(onSecond).toBeLessThan(1000);
  });

  it('both accept a renewed key again within one second', async () => {
    const { createOperatorApi } = await import('@quotes/accounts');
    const operator = createOperatorApi(servers.database);
    const issued = await operator.createKey({
      plan: 'starter',
      client: 'Renewal',
      expiresAt: new Date(Date.now() + 1500),
    });
    expect((await first.call('/v1/quotes-usage', { key: issued.key })).status).toBe(200);
    expect((await second.call('/v1/quotes-usage', { key: issued.key })).status).toBe(200);
    await untilStatus(first, issued.key, 403, 3000);
    await untilStatus(second, issued.key, 403, 3000);
    await operator.renewKey(issued.id, new Date(Date.now() + 86_400_000));
    await untilStatus(first, issued.key, 200, 1000);
    await untilStatus(second, issued.key, 200, 1000);
  });
});
