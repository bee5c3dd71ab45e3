import { describe, expect, it } from 'vitest';
import { requestIdFor } from '../../src/http/requestId.js';
import { generateApiKey, randomBase62 } from '@quotes/accounts';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('the request id', () => {
  it("takes the caller's sane id, and a fresh one for anything key- or token-shaped", () => {
    expect(requestIdFor({ 'x-request-id': 'trace-123' })).toBe('trace-123');
    expect(requestIdFor({ 'x-request-id': '76e1421b-7c5d-4794-9ae3-b241da32ad74' })).toBe(
      '76e1421b-7c5d-4794-9ae3-b241da32ad74',
    );
    for (const offered of [generateApiKey(), randomBase62(32), 'bad id with spaces'])
      expect(requestIdFor({ 'x-request-id': offered })).toMatch(uuid);
  });
});
