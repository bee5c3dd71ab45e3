import { rules } from '@quotes/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, httpFixture } from '../support/httpFixture.js';
import { problemType } from '../../testing/testServer.js';

let fixture: HttpFixture;
beforeAll(async () => {
  fixture = await httpFixture();
});
afterAll(() => fixture?.close());

const trialPerSecond = rules.planById.get('trial')?.requestsPerSecond as number;

describe('burst limit per key (429 rate-limited, step 5)', () => {
  it('refuses a trial key past its calls per second with Retry-After, uncounted; another key is unaffected', async () => {
    const flooding = (await fixture.server.createKey({ plan: 'trial' })).key;
    const other = (await fixture.server.createKey({ plan: 'trial' })).key;
    const burst = trialPerSecond * 3;
    const answers = await Promise.all(
      Array.from({ length: burst }, () => fixture.server.call('/v1/quotes-random', { key: flooding })),
    );
    const ok = answers.filter((answer) => answer.status === 200);
    const limited = answers.filter((answer) => answer.status === 429);
    console.info(`burst: ${burst} calls at once of a trial key, ${ok.length} answered 200, ${limited.length} 429`);
    expect(ok.length + limited.length).toBe(burst);
    // The bucket holds one second's calls; the burst took well under a second to send.
    expect(ok.length).toBeGreaterThanOrEqual(trialPerSecond);
    expect(ok.length).toBeLessThan(burst);
    for (const answer of limited) {
      expect(problemType(answer)).toBe('rate-limited');
      expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(answer.headers.get('x-ratelimit-remaining')).toBeNull();
      expect(answer.contentType).toContain('application/problem+json');
    }
    expect((await fixture.server.call('/v1/quotes-random', { key: other })).status).toBe(200);
    // Not counted: the usage (itself never limited) shows the 200s only.
    const usage = await fixture.server.call('/v1/quotes-usage', { key: flooding });
    expect(usage.status).toBe(200);
    expect((usage.body as { calls_this_month: number }).calls_this_month).toBe(ok.length);
    // After its Retry-After the key is served again.
    await new Promise((resolve) => setTimeout(resolve, Number(limited[0]?.headers.get('retry-after')) * 1000));
    expect((await fixture.server.call('/v1/quotes-random', { key: flooding })).status).toBe(200);
  });
});
