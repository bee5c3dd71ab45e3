import { describe, expect, it } from 'vitest';
import { contractBackend } from '../src/contractBackend.js';

describe('the contract backend', () => {
  it('is initialised once per process: the routing and the key-request form share one', async () => {
    const [first, second] = await Promise.all([contractBackend(), contractBackend()]);
    expect(second).toBe(first);
    expect(await contractBackend()).toBe(first);
    expect(first.getOperations().some((operation) => operation.operationId === 'requestKey')).toBe(true);
  });

  it('compiles a validator when it is first asked for, and none of the responses for a server that never asks', async () => {
    const api = await contractBackend();
    expect(Object.keys(api.validator.responseValidators)).toEqual([]);
    const [validate] = api.validator.getRequestValidatorsForOperation('listQuotes');
    expect(validate?.({ query: { limit: 'many' } })).toBe(false);
    expect(validate?.({ query: { limit: '5' } })).toBe(true);
    expect(Object.keys(api.validator.requestValidators)).toContain('listQuotes');
  });
});
