import { readFileSync } from 'node:fs';
import { loadContract } from '@quotes/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocsFront, type RunningDocsFront } from '../src/docsFront.js';
import { type RunningMock, startMock } from '../src/index.js';

// Every 429 the README offers through `Prefer`, asked of every operation under /v1, on the mock
// as `quotes-mock` runs it (the front and a real Prism behind it), over real HTTP: a 429 where
// the contract declares one, the operation's own answer where it declares none, never Prism's.
let prism: RunningMock;
let mock: RunningDocsFront;

beforeAll(async () => {
  prism = await startMock();
  mock = await createDocsFront({ upstream: prism.url, port: 0, plan: 'trial' });
});
afterAll(async () => {
  await mock?.close();
  await prism?.stop();
});

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** Each `Prefer` for a 429 the README offers, and the problem type it gives. */
const preferences: [string, string][] = [
  ['code=429', 'urn:quotes:problem:allowance-exhausted'],
  ['example=rate-limited', 'urn:quotes:problem:rate-limited'],
  ['code=429, example=rate-limited', 'urn:quotes:problem:rate-limited'],
  ['example=calls-at-once', 'urn:quotes:problem:rate-limited'],
  ['code=429, example=calls-at-once', 'urn:quotes:problem:rate-limited'],
];

type Operation = { operationId: string; responses: Record<string, unknown> };
const operations = Object.entries(loadContract().paths)
  .filter(([path]) => path.startsWith('/v1/'))
  .map(([path, item]) => ({ path, ...(item.get as unknown as Operation) }));

describe('Prefer for a 429 on every operation', () => {
  it('covers what the README offers and every operation under /v1', () => {
    for (const [prefer] of preferences)
      for (const part of prefer.split(', ')) expect(readme).toContain(`Prefer: ${part}`);
    expect(operations.map((operation) => operation.operationId).sort()).toEqual([
      'getRandomQuote',
      'getUsage',
      'listFilterValues',
      'listQuotes',
    ]);
  });

  const cases = operations.flatMap((operation) =>
    preferences.map(([prefer, type]) => [operation.path, prefer, type, operation] as const),
  );
  it.each(cases)('%s with Prefer: %s', async (path, prefer, type, operation) => {
    const answer = await fetch(`${mock.url}${path}`, { headers: { 'X-API-Key': 'prefer-key', Prefer: prefer } });
    const body = (await answer.json()) as { type?: string; client?: string };
    if (operation.responses['429'] !== undefined) {
      expect([answer.status, body.type]).toEqual([429, type]);
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    } else {
      // quotes-usage declares no 429: the server never sends one there, and neither does the mock.
      expect(answer.status).toBe(200);
      expect(body.client).toBe('quotes-mock');
    }
  });
});
