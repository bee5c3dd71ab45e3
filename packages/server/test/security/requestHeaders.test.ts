import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { dropUnreadableForwardedFor } from '../../src/http/forwardedFor.js';
import { requestIdFor } from '../../src/http/requestId.js';
import { generateApiKey, randomBase62 } from '../../src/keys/apiKeySecret.js';

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

describe('X-Forwarded-For', () => {
  const forwarded = (value: string | undefined) => {
    const request = { headers: value === undefined ? {} : { 'x-forwarded-for': value } } as IncomingMessage;
    dropUnreadableForwardedFor(request);
    return request.headers['x-forwarded-for'];
  };

  it('keeps the addresses from the right up to the first entry that is not one', () => {
    expect(forwarded('203.0.113.9, 198.51.100.7')).toBe('203.0.113.9, 198.51.100.7');
    expect(forwarded('garbage, 203.0.113.9, 2001:db8::1')).toBe('203.0.113.9, 2001:db8::1');
    expect(forwarded(`203.0.113.9, ${generateApiKey()}`)).toBeUndefined();
    expect(forwarded('ada@example.org')).toBeUndefined();
    expect(forwarded('203.0.113.9:443')).toBeUndefined();
    expect(forwarded(undefined)).toBeUndefined();
  });
});
