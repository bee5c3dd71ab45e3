import type { OpenAPIBackend } from 'openapi-backend';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ContractRouting, contractBackend, loadContractRouting } from '../../src/http/contractRouting.js';
import { parameterErrorsFromSchema, type SchemaError } from '../../src/http/requestScreening.js';

/**
 * contractRouting.ts routes with a map built once from openapi-backend's operations and validates
 * with the library's compiled validators, rather than through handleRequest. These tests hold it
 * to the library's own answers on the same requests: a release that routes, validates or coerces
 * differently fails here, not in production.
 */
let routing: ContractRouting;
let library: OpenAPIBackend;

beforeAll(async () => {
  routing = await loadContractRouting();
  library = await contractBackend();
});

const requests: Array<[string, string]> = [
  ['GET', '/v1/quotes-random'],
  ['get', '/v1/quotes-filter'],
  ['GET', '/v1/quotes-categories/'],
  ['GET', '/v1/quotes-usage//'],
  ['POST', '/v1/quotes-random'],
  ['DELETE', '/v1/quotes-usage'],
  ['GET', '/v1/quotes-Random'],
  ['GET', '/v1/quotes-random/extra'],
  ['GET', '/v1'],
  ['GET', '/'],
  ['GET', '//v1/quotes-random'],
  ['HEAD', '/v1/quotes-filter'],
];

describe('contract routing', () => {
  it('knows every operation of the contract', () => {
    expect(routing.routes.map((route) => route.operationId).sort()).toEqual(
      library
        .getOperations()
        .map((operation) => operation.operationId)
        .sort(),
    );
  });

  it.each(requests)('routes %s %s as openapi-backend does', (method, path) => {
    const ours = routing.match(method, path);
    const theirs = library.router.matchOperation({ method, path, headers: {} });
    if (theirs) {
      expect(ours).toMatchObject({ route: { operationId: theirs.operationId } });
      return;
    }
    // The library's own 405 test: the path is known for some method.
    const known = library
      .getOperations()
      .filter(
        (operation) =>
          library.router.matchOperation({ method: operation.method, path, headers: {} })?.operationId ===
          operation.operationId,
      );
    if (known.length > 0) {
      expect(ours).toEqual({ allowedMethods: known.map((operation) => operation.method.toUpperCase()) });
    } else {
      expect(ours).toEqual({ notFound: true });
    }
  });

  it('validates and coerces a query as the library validates the whole request', () => {
    const route = routing.routes.find((candidate) => candidate.operationId === 'listQuotes')!;
    const queries: Array<Record<string, string>> = [
      { limit: '25', offset: '0' },
      { limit: '0', offset: '-1', era: 'x'.repeat(30) },
      { limit: 'ten' },
      { category: 'grief' },
    ];
    for (const query of queries) {
      const ours = { ...query } as Record<string, unknown>;
      const errors = route.validateQuery(ours);
      const theirs = library.validator.validateRequest({
        method: 'get',
        path: '/v1/quotes-filter',
        query,
        headers: {},
      });
      expect(parameterErrorsFromSchema(errors)).toEqual(
        parameterErrorsFromSchema((theirs.errors ?? []) as SchemaError[]),
      );
      if (errors.length === 0) expect(ours).toEqual(theirs.coerced?.query);
    }
    const coerced: Record<string, unknown> = { limit: '25' };
    expect(route.validateQuery(coerced)).toEqual([]);
    expect(coerced.limit).toBe(25);
  });
});
