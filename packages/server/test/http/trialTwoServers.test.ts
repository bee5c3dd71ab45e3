import { setUsage } from '@quotes/accounts/usage-override';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, problemType } from '../../testing/testServer.js';
import { startTwoServers, type TwoServers } from '../support/twoServers.js';

// Both servers apply a trial's period: each caps the key's month at what its earlier month left,
// and the counter keeps the sum exact across them.
const clock = manualClock('2026-11-29T12:00:00Z');
let servers: TwoServers;

beforeAll(async () => {
  servers = await startTwoServers({ clock: clock.clock });
});
afterAll(() => servers?.close());

describe('a trial across the 1st on two servers', () => {
  it('grants exactly what the earlier month left, whichever server answers', async () => {
    const trial = await servers.first.createKey({ plan: 'trial' });
    await setUsage(servers.database, trial.id, 995, '2026-11');
    clock.set('2026-12-01T00:00:20Z');
    const statuses: string[] = [];
    for (let call = 0; call < 10; call++) {
      const server = call % 2 === 0 ? servers.first : servers.second;
      const answer = await server.call('/v1/quotes-random', { key: trial.key });
      statuses.push(answer.status === 200 ? '200' : `${answer.status} ${problemType(answer)}`);
      // Under the trial's burst limit (10 a second, shared by the servers): only the allowance refuses.
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(statuses.filter((status) => status === '200')).toHaveLength(5);
    expect(statuses.filter((status) => status === '429 allowance-exhausted')).toHaveLength(5);
    await Promise.all([servers.first.flushCounts(), servers.second.flushCounts()]);
    expect((await servers.first.operator.usage(trial.id, '2026-12')).calls).toBe(5);
  });
});
