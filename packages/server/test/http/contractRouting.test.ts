import type { OpenAPIBackend } from 'openapi-backend';
import { contractBackend } from '@quotes/service-base';
import { beforeAll, describe, expect, it } from 'vitest';
import { allowedMethodsOf, type ContractRouting, loadContractRouting } from '../../src/http/contractRouting.js';
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
  ['POST', '/v1/quotes-random'],
  ['DELETE', '/v1/quotes-usage'],
  ['GET', '/v1/quotes-Random'],
  ['GET', '/v1/quotes-random/extra'],
  ['GET', '/v1'],
  ['GET', '/'],
  ['GET', '//v1/quotes-random'],
];

describe('contract routing', () => {
  it('knows every /v1 operation of the contract', () => {
    expect(routing.routes.map((route) => route.operationId).sort()).toEqual(
      library
        .getOperations()
        .filter((operation) => operation.path.startsWith('/v1/'))
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
      expect(ours).toEqual({ allowedMethods: allowedMethodsOf(known.map((operation) => operation.method)) });
    } else {
      expect(ours).toEqual({ notFound: true });
    }
  });

  it('is stricter than the library where the contract is: trailing slashes, HEAD', () => {
    expect(library.router.matchOperation({ method: 'GET', path: '/v1/quotes-usage/', headers: {} })).toBeTruthy();
    for (const path of ['/v1/quotes-categories/', '/v1/quotes-usage//', '/v1/quotes-random/']) {
      expect(routing.match('GET', path), path).toEqual({ notFound: true });
    }
    expect(routing.match('HEAD', '/v1/quotes-filter')).toMatchObject({ route: { operationId: 'listQuotes' } });
    expect(routing.match('POST', '/v1/quotes-filter')).toEqual({ allowedMethods: ['GET', 'HEAD', 'OPTIONS'] });
  });

  it('takes only decimal digits as an integer, where Ajv would coerce more', () => {
    const route = routing.routes.find((candidate) => candidate.operationId === 'listQuotes')!;
    const librarysView = library.validator.validateRequest({
      method: 'get',
      path: '/v1/quotes-filter',
      query: { limit: '0x10' },
      headers: {},
    });
    expect(librarysView.coerced?.query).toMatchObject({ limit: 16 });
    for (const value of ['0x10', '1e1', '+5', ' 10', '10 ', '1.0', '0b1', 'Infinity']) {
      const loose: Record<string, unknown> = { limit: value };
      const errors = parameterErrorsFromSchema(route.validateQuery({ offset: value, limit: '5' }));
      expect(errors, value).toEqual([{ parameter: 'offset', message: 'must be an integer' }]);
      expect(parameterErrorsFromSchema(route.validateQuery(loose)), value).toEqual([
        { parameter: 'limit', message: 'must be an integer' },
      ]);
    }
    const negative: Record<string, unknown> = { offset: '-1' };
    expect(parameterErrorsFromSchema(route.validateQuery(negative))).toEqual([
      { parameter: 'offset', message: 'must be at least 0' },
    ]);
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
