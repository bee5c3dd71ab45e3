import { loadContract } from '@quotes/contract';
import { describe, expect, it } from 'vitest';
import { documentedResponses } from '../src/contract/operations.js';
import { ContractValidator, type ObservedResponse } from '../src/validation/contractValidator.js';

type Json = Record<string, unknown>;

const validator = new ContractValidator();

/** The contract's own example for a documented response, with its headers' examples. */
function exampleResponse(operationId: string, status: number): ObservedResponse {
  const response = documentedResponses().find(
    (candidate) => candidate.operation.operationId === operationId && candidate.status === status,
  );
  if (!response) throw new Error(`no ${operationId} ${status}`);
  const contract = loadContract() as unknown as Json;
  const resolve = (node: Json): Json => {
    let current = node;
    while (typeof current.$ref === 'string') {
      current = (current.$ref as string)
        .slice(2)
        .split('/')
        .reduce<Json>((object, segment) => object[segment] as Json, contract);
    }
    return current;
  };
  const paths = contract.paths as Record<string, Record<string, Json>>;
  const method = response.operation.method;
  const operation = paths[response.operation.path]![method.toLowerCase()]!;
  const raw = resolve((operation.responses as Record<string, Json>)[String(status)]!);
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries((raw.headers ?? {}) as Record<string, Json>)) {
    headers[name.toLowerCase()] = String(resolve(header).example);
  }
  // A response documented without content (304) is an empty body with no Content-Type.
  if (!raw.content) return { method, path: response.operation.path, status, headers, body: '' };
  const media = (raw.content as Record<string, Json>)[response.mediaType]!;
  const example = media.example ?? Object.values((media.examples ?? {}) as Record<string, Json>)[0]?.value;
  headers['content-type'] = response.mediaType;
  return { method, path: response.operation.path, status, headers, body: JSON.stringify(example) };
}

function issuesOf(response: ObservedResponse): string[] {
  return validator.validate(response).issues.map((issue) => `${issue.where}: ${issue.message}`);
}

function withBody(response: ObservedResponse, change: (body: Json) => Json): ObservedResponse {
  return { ...response, body: JSON.stringify(change(JSON.parse(response.body) as Json)) };
}

describe('the contract validator (Ajv over the contract schemas)', () => {
  it('accepts every example the contract gives, headers and content type included', () => {
    for (const response of documentedResponses()) {
      expect(
        issuesOf(exampleResponse(response.operation.operationId, response.status)),
        response.transactionName,
      ).toEqual([]);
    }
  });

  it('rejects a body of the wrong type, an unknown property and a bad enum value', () => {
    const quote = exampleResponse('getRandomQuote', 200);
    expect(issuesOf(withBody(quote, (body) => ({ ...body, length: 42 })))).toEqual(
      expect.arrayContaining([expect.stringContaining('/length must be string')]),
    );
    expect(issuesOf(withBody(quote, (body) => ({ ...body, score: 0.9 })))).toEqual([
      expect.stringContaining('must NOT have additional properties (score)'),
    ]);
    expect(issuesOf(withBody(quote, (body) => ({ ...body, era: 'Jurassic' })))).toEqual([
      expect.stringContaining('/era must be equal to one of the allowed values'),
    ]);
    expect(issuesOf(withBody(quote, (body) => ({ ...body, mood: 'reflective, uplifting' })))).toEqual([
      expect.stringContaining('/mood must match pattern'),
    ]);
    const { id: _id, ...withoutId } = JSON.parse(quote.body) as Json;
    expect(issuesOf({ ...quote, body: JSON.stringify(withoutId) })).toEqual([
      expect.stringContaining("must have required property 'id'"),
    ]);
  });

  it('handles OpenAPI 3.0 nullable: null only where the contract allows it', () => {
    const quote = exampleResponse('getRandomQuote', 200);
    expect(issuesOf(withBody(quote, (body) => ({ ...body, secondary_category: null, faith_tradition: null })))).toEqual(
      [],
    );
    expect(issuesOf(withBody(quote, (body) => ({ ...body, category: null })))).not.toEqual([]);
    const usage = exampleResponse('getUsage', 200);
    expect(issuesOf(withBody(usage, (body) => ({ ...body, call_limit: null, calls_remaining: null })))).toEqual([]);
    expect(issuesOf(withBody(usage, (body) => ({ ...body, calls_this_month: null })))).toEqual([
      expect.stringContaining('/calls_this_month must be integer'),
    ]);
    expect(issuesOf(withBody(usage, (body) => ({ ...body, resets_at: 'next month' })))).toEqual([
      expect.stringContaining('must match format "date-time"'),
    ]);
  });

  it('rejects a Content-Type other than exactly the declared media type', () => {
    const quote = exampleResponse('getRandomQuote', 200);
    expect(
      issuesOf({ ...quote, headers: { ...quote.headers, 'content-type': 'application/json; charset=utf-8' } }),
    ).toEqual([expect.stringContaining('content-type: Content-Type is "application/json; charset=utf-8"')]);
    const problem = exampleResponse('getRandomQuote', 400);
    expect(issuesOf({ ...problem, headers: { ...problem.headers, 'content-type': 'application/json' } })).not.toEqual(
      [],
    );
  });

  it('checks the declared headers: required ones present, values matching their schemas', () => {
    const exhausted = exampleResponse('listQuotes', 429);
    const { 'retry-after': _retryAfter, ...withoutRetryAfter } = exhausted.headers;
    expect(issuesOf({ ...exhausted, headers: withoutRetryAfter })).toEqual([
      'header: required header Retry-After is missing',
    ]);
    expect(issuesOf({ ...exhausted, headers: { ...exhausted.headers, 'x-ratelimit-remaining': 'plenty' } })).toEqual([
      expect.stringContaining('is not an integer'),
    ]);
    expect(issuesOf({ ...exhausted, headers: { ...exhausted.headers, ratelimit: 'monthly;r=1' } })).toEqual([
      expect.stringContaining('RateLimit: "monthly;r=1" must match pattern'),
    ]);
  });

  it('rejects a status the operation does not declare and a problem whose status disagrees', () => {
    const usage = exampleResponse('getUsage', 403);
    expect(issuesOf({ ...usage, status: 500 })).toEqual([
      expect.stringContaining('getUsage answered 500, which the contract does not declare'),
    ]);
    expect(issuesOf(withBody(usage, (body) => ({ ...body, status: 401 })))).toEqual([
      'body: problem status 401 differs from HTTP 403',
    ]);
    expect(issuesOf({ ...usage, body: '<html>Forbidden</html>' })).toEqual([
      expect.stringContaining('body is not JSON'),
    ]);
  });

  it('holds answers outside the operations to the problem details the contract describes', () => {
    const problem = {
      type: 'urn:quotes:problem:method-not-allowed',
      title: 'Method not allowed',
      status: 405,
      detail: 'Use GET.',
    };
    const base = { method: 'DELETE', path: '/v1/quotes-random', status: 405, body: JSON.stringify(problem) };
    expect(issuesOf({ ...base, headers: { 'content-type': 'application/problem+json', allow: 'GET' } })).toEqual([]);
    expect(issuesOf({ ...base, headers: { 'content-type': 'application/problem+json' } })).toEqual([
      'header: 405 without an Allow header',
    ]);
    expect(
      issuesOf({ method: 'GET', path: '/v1/nope', status: 200, headers: { 'content-type': 'text/html' }, body: 'hi' }),
    ).toHaveLength(3);
  });
});
