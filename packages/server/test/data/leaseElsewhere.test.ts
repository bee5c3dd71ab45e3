import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { elsewhereWaitFlushes } from '../../src/data/counting/monthlyCounter.js';
import { counterFixture, month, servedCall } from './counterFixture.js';

// A 429 says the allowance is used up: a call whose allowance is left only in another server's
// lease waits for it, a bounded time, instead of being refused while calls remain.
const fixture = counterFixture();
const { counterOn, newKey, leasesOf } = fixture;

describe('the allowance left in another server’s lease', () => {
  it('is given back to a call on another server, and only the call past the cap is refused', async () => {
    const keyId = await newKey();
    // `here` renews its lease once a second: its idle place goes back at its next timed flush.
    const here = counterOn(fixture.database.pool, { servers: () => 2, flushMs: 1000 });
    const there = counterOn(fixture.secondProcess.pool, { servers: () => 2, flushMs: 400 });
    expect(await servedCall(here, keyId, month, 2)).toBe(1);
    // A timed round sizes here's lease to its demand: it holds the last place, unused.
    await here.flush();
    expect((await leasesOf(keyId)).map((lease) => lease.reserved)).toEqual([1]);

    expect(await servedCall(there, keyId, month, 2)).toBe(2);
    expect(await servedCall(here, keyId, month, 2)).toBe(0);
    expect(await servedCall(there, keyId, month, 2)).toBe(0);
  });

  it(`is waited for ${elsewhereWaitFlushes} flush intervals at most while the other server keeps it, then the call is refused`, async () => {
    const keyId = await newKey();
    const flushMs = 100;
    const there = counterOn(fixture.secondProcess.pool, { servers: () => 2, flushMs });
    // Another live server holds the whole allowance of 3 and neither spends it nor gives it back.
    await sql`INSERT INTO allowance_leases (server_id, key_id, month, reserved, renewed_at)
      VALUES ('another-server', ${keyId}, ${month}::date, 3, now())`.execute(fixture.database.db);
    const started = performance.now();
    expect(await servedCall(there, keyId, month, 3)).toBe(0);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(elsewhereWaitFlushes * flushMs);
    expect(waited).toBeLessThan(elsewhereWaitFlushes * flushMs + 2000);
  });
});
