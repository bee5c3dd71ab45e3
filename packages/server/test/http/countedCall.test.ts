import { AllowanceCrossings } from '../../src/domain/allowanceCrossings.js';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { MonthlyCounter } from '../../src/data/counting/monthlyCounter.js';
import { EarlierPeriodCalls } from '../../src/data/counting/earlierPeriodCalls.js';
import { rules } from '@quotes/contract';
import type { ApiCall } from '../../src/http/apiCall.js';
import { countedCall } from '../../src/http/countedCall.js';
import { createOperatorApi } from '@quotes/accounts';
import type { Problem } from '@quotes/service-base/problems';
import type { ServiceRuntime } from '../../src/serviceRuntime.js';

const enterpriseKey = {
  plan: rules.planById.get('enterprise'),
  createdAt: new Date('2026-11-01T00:00:00Z'),
  expiresAt: null,
};

// A database of this file's own, made as the file loads.
const database: TestDatabase = await createTestDatabase();
afterAll(() => database.drop());

describe('a counted call', () => {
  it('reads while it waits for its lease, except for a key whose allowance was found used up', async () => {
    const keyId = (
      await createOperatorApi(database).createKey({ client: 'Counted call test', plan: 'enterprise', unlimited: true })
    ).id;
    const counter = new MonthlyCounter(database.pool, { flushMs: 60_000 });
    const runtime = {
      clock: () => new Date('2026-11-24T12:00:00Z'),
      counter,
      earlierCalls: new EarlierPeriodCalls(counter),
      crossings: new AllowanceCrossings(),
    } as unknown as ServiceRuntime;
    const call = {
      operationId: 'getRandomQuote',
      caller: { key: { id: keyId, ...enterpriseKey }, limits: { monthlyCalls: 2 } },
    } as unknown as ApiCall;
    const acquire = counter.acquire.bind(counter);
    let admitted = false;
    counter.acquire = (...args) => {
      const outcome = acquire(...args);
      if (!(outcome instanceof Promise)) {
        admitted = true;
        return outcome;
      }
      return outcome.then((settled) => {
        admitted = true;
        return settled;
      });
    };
    let reads = 0;
    let readBeforeAdmitted = false;
    const operation = async () => {
      reads++;
      readBeforeAdmitted ||= !admitted;
      return { status: 200 as const, headers: {} as Record<string, string> };
    };
    const refused = () =>
      countedCall(runtime, call, operation).then(
        () => 'answered',
        (error: unknown) => error,
      );

    // Each call finds the lease full (one place is asked for each), so each reads while it waits.
    const first = await countedCall(runtime, call, operation);
    expect(first.status).toBe(200);
    expect(first.headers?.['X-RateLimit-Remaining']).toBe('1');
    expect(readBeforeAdmitted).toBe(true);
    expect((await countedCall(runtime, call, operation)).headers?.['X-RateLimit-Remaining']).toBe('0');
    expect(reads).toBe(2);
    // The round that admitted the second found nothing left: from then on calls are refused without a read.
    expect(await refused()).toMatchObject({ status: 429 } satisfies Partial<Problem>);
    expect(await refused()).toMatchObject({ status: 429 });
    expect(reads).toBe(2);
    await counter.close();
  });

  it('answers 503 when counting fails, whatever the read that ran beside it did', async () => {
    const counter = { mayGrant: () => true, acquire: () => Promise.reject(new Error('database gone')) };
    const runtime = {
      clock: () => new Date(),
      counter,
      earlierCalls: { of: () => 0 },
      crossings: new AllowanceCrossings(),
    } as unknown as ServiceRuntime;
    const call = {
      operationId: 'getRandomQuote',
      caller: { key: { id: 'k_x', ...enterpriseKey }, limits: { monthlyCalls: null } },
    } as unknown as ApiCall;
    await expect(countedCall(runtime, call, () => Promise.reject(new Error('read failed too')))).rejects.toThrow(
      'database gone',
    );
  });
});
