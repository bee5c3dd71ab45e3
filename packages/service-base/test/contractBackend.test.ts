import { describe, expect, it } from 'vitest';
import { contractBackend } from '../src/contractBackend.js';

describe('the contract backend', () => {
  it("is initialised once per process: the routing and the key-request form share one (its init is a server start's largest CPU cost)", async () => {
    const [first, second] = await Promise.all([contractBackend(), contractBackend()]);
    expect(second).toBe(first);
    expect(await contractBackend()).toBe(first);
    expect(first.getOperations().some((operation) => operation.operationId === 'requestKey')).toBe(true);
  });
});
