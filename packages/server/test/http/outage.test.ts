import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, corpusListenerName, type DatabaseHandle } from '@quotes/database';
import { createOperatorApi } from '@quotes/accounts';
import { OwnCluster } from '../../testing/ownCluster.js';
import { problemType, startTestServer, type TestServer } from '../../testing/testServer.js';

let own: OwnCluster;
let database: DatabaseHandle;
let server: TestServer;

beforeAll(async () => {
  own = await OwnCluster.start('quotes-outage-', 5);
  ({ database } = own);
  server = await startTestServer(database);
});

afterAll(async () => {
  await server?.close();
  await own?.remove();
});

describe('a database outage', () => {
  it('answers 503 service-unavailable (not a hang, not a crash), does not count, and recovers by itself', async () => {
    const issued = await server.createKey({ plan: 'professional' });
    let successes = 0;
    const count = async (path: string) => {
      const answer = await server.call(path, { key: issued.key });
      if (answer.status === 200) successes++;
      return answer;
    };
    expect((await count('/v1/quotes-random')).status).toBe(200);
    expect((await count('/v1/quotes-filter?category=grief')).status).toBe(200);

    await own.stop();
    for (const path of [
      '/v1/quotes-random',
      '/v1/quotes-filter?mood=dark',
      '/v1/quotes-categories',
      '/v1/quotes-usage',
    ]) {
      const started = Date.now();
      const answer = await count(path);
      // The filter values are kept in memory: within the key's lease (the allowance this server
      // reserved) they are answered and counted, written once the database is back.
      if (path === '/v1/quotes-categories' && answer.status === 200) continue;
      expect([answer.status, problemType(answer)], path).toEqual([503, 'service-unavailable']);
      expect(Date.now() - started).toBeLessThan(5000);
    }
    expect((await server.call('/readyz', { unchecked: true })).status).toBe(503);
    expect((await server.call('/healthz', { unchecked: true })).status).toBe(200);

    await own.restart();
    const deadline = Date.now() + 15_000;
    let recovered = await count('/v1/quotes-random');
    while (recovered.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      recovered = await count('/v1/quotes-random');
    }
    expect(recovered.status).toBe(200);
    expect((await server.call('/readyz', { unchecked: true })).status).toBe(200);

    // Only the answered calls were counted, each once (the counts kept during the outage written).
    const settle = Date.now() + 5000;
    let calls = (await server.operator.usage(issued.id)).calls;
    while (calls !== successes && Date.now() < settle) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      calls = (await server.operator.usage(issued.id)).calls;
    }
    expect(calls).toBe(successes);
  });

  it('listens for changes again after it: a revocation still takes effect within a second', async () => {
    const issued = await server.createKey({ plan: 'starter' });
    expect((await server.call('/v1/quotes-usage', { key: issued.key })).status).toBe(200);
    const other = connectDatabase(database.url, { poolSize: 1 });
    try {
      // The server's notification connection is back: its last statement was the LISTEN, or a
      // presence message, which it sends only after listening.
      const deadline = Date.now() + 5000;
      let listening = 0;
      while (listening === 0 && Date.now() < deadline) {
        const result = await other.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE application_name = $1 AND (query LIKE 'LISTEN quotes_key_changed%' OR query LIKE 'SELECT pg_notify%')`,
          [corpusListenerName],
        );
        listening = result.rows[0]!.n;
        if (listening === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(listening).toBe(1);
      await createOperatorApi(other).revokeKey(issued.id);
      const started = Date.now();
      let status = 200;
      while (status !== 403 && Date.now() - started < 1000) {
        status = (await server.call('/v1/quotes-usage', { key: issued.key })).status;
      }
      expect(status).toBe(403);
    } finally {
      await other.close();
    }
  });
});
