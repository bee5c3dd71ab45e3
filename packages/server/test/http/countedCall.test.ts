import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { MonthlyCounter } from '../../src/data/monthlyCounter.js';
import type { ApiCall } from '../../src/http/apiCall.js';
import { countedCall } from '../../src/http/countedCall.js';
import { createOperatorApi } from '../../src/operator/operatorApi.js';
import type { Problem } from '../../src/problems.js';
import type { ServiceRuntime } from '../../src/serviceRuntime.js';

// A database of this file's own, made as the file loads.
const database: TestDatabase = await createTestDatabase();
afterAll(() => database.drop());

describe('a counted call', () => {
  it('reads while it is counted, except for a key whose allowance was found used up', async () => {
    const keyId = (await createOperatorApi(database).createKey({ client: 'Counted call test', plan: 'enterprise' })).id;
    const counter = new MonthlyCounter(database.pool);
    const runtime = { clock: () => new Date('2026-11-24T12:00:00Z'), counter } as unknown as ServiceRuntime;
    const call = {
      operationId: 'getRandomQuote',
      caller: { key: { id: keyId }, limits: { monthlyCalls: 1 } },
    } as unknown as ApiCall;
    const acquire = counter.acquire.bind(counter);
    let counted = false;
    counter.acquire = (...args) =>
      acquire(...args).then((outcome) => {
        counted = true;
        return outcome;
      });
    let reads = 0;
    let readBeforeCounted = false;
    const operation = async () => {
      reads++;
      readBeforeCounted ||= !counted;
      return { status: 200 as const };
    };
    const refused = () =>
      countedCall(runtime, call, operation).then(
        () => 'answered',
        (error: unknown) => error,
      );

    expect((await countedCall(runtime, call, operation)).status).toBe(200);
    expect(reads).toBe(1);
    expect(readBeforeCounted).toBe(true);
    // Refused: its read had started beside the count, and its answer is dropped.
    expect(await refused()).toMatchObject({ status: 429 } satisfies Partial<Problem>);
    expect(reads).toBe(2);
    // From then on the key's calls are refused without a read.
    expect(await refused()).toMatchObject({ status: 429 });
    expect(await refused()).toMatchObject({ status: 429 });
    expect(reads).toBe(2);
  });

  it('answers 503 when counting fails, whatever the read that ran beside it did', async () => {
    const counter = { mayGrant: () => true, acquire: () => Promise.reject(new Error('database gone')) };
    const runtime = { clock: () => new Date(), counter } as unknown as ServiceRuntime;
    const call = {
      operationId: 'getRandomQuote',
      caller: { key: { id: 'k_x' }, limits: { monthlyCalls: null } },
    } as unknown as ApiCall;
    await expect(countedCall(runtime, call, () => Promise.reject(new Error('read failed too')))).rejects.toThrow(
      'database gone',
    );
  });
});
