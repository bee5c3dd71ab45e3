import { contractBackend } from '@quotes/service-base';
import type { Operation } from 'openapi-backend';
import { type OperationId, operationIds } from './operations.js';
import type { SchemaError } from './requestScreening.js';

/**
 * The contract's routes and request validation, from openapi-backend through its public API
 * only (`init`, `getOperations`, `validator.getRequestValidatorsForOperation`), behind this small
 * interface.
 *
 * Why not `handleRequest`: on every request it rebuilds the operation list (through lodash) and
 * parses the request three times (routing, then validation, each copying the request,
 * lower-casing headers, parsing cookies, compiling path templates): together a fifth of the
 * server's CPU under load. This contract has static paths and query parameters only, so the
 * operations are read once into a map keyed by method and path, and each request is validated
 * by the library's own compiled validators, given the query that the screening already parsed.
 * Routing answers as the library's router does, except where the contract is stricter (a
 * trailing slash is an unknown path, HEAD is GET without a body, an integer is decimal digits
 * only): test/http/contractRouting.test.ts compares the two on the same requests, so a release
 * of openapi-backend that routes or validates differently fails there.
 */
export interface ContractRoute {
  readonly operationId: OperationId;
  /** The operation's query parameters, by name. */
  readonly queryParameters: ReadonlySet<string>;
  /** Operations without a documented 400 take no parameters: a query string sent to them is ignored. */
  readonly answers400: boolean;
  /** Validates the query against the contract's parameter schemas, coercing its values in place. */
  validateQuery(query: Record<string, unknown>): readonly SchemaError[];
}

export type RouteMatch =
  | { readonly route: ContractRoute }
  | { readonly notFound: true }
  | { readonly allowedMethods: readonly string[] };

/** Methods answered on every known path besides the contract's: HEAD wherever GET is (RFC 9110), OPTIONS (CORS preflights). */
export function allowedMethodsOf(contractMethods: readonly string[]): string[] {
  const methods = contractMethods.map((name) => name.toUpperCase());
  if (methods.includes('GET')) methods.push('HEAD');
  methods.push('OPTIONS');
  return methods;
}

/** Ajv's coercion reads `0x10`, `1e1`, `+5` and ` 10` as numbers; the contract's integers are decimal digits only. */
const decimalInteger = /^-?[0-9]+$/;

export interface ContractRouting {
  readonly routes: readonly ContractRoute[];
  match(method: string, path: string): RouteMatch;
}

/** The header parameters the contract may have: plain strings the server reads itself. */
const readHeaders = new Set(['if-none-match']);

function unsupportedPart(operation: Operation): string | undefined {
  if (operation.path.includes('{')) return 'a path parameter';
  if (operation.requestBody) return 'a request body';
  for (const parameter of operation.parameters ?? []) {
    if (!('in' in parameter)) return 'an unresolved parameter';
    if (parameter.in === 'query') continue;
    if (parameter.in === 'header' && readHeaders.has(parameter.name.toLowerCase())) continue;
    return `the ${parameter.in} parameter ${parameter.name}`;
  }
  return undefined;
}

export async function loadContractRouting(): Promise<ContractRouting> {
  const api = await contractBackend();
  const byPath = new Map<string, Map<string, ContractRoute>>();
  const routes: ContractRoute[] = [];
  for (const operation of api.getOperations()) {
    // The API is under /v1; the contract's other operations (key requests) have routers of their own.
    if (!operation.path.startsWith('/v1/')) continue;
    const operationId = operation.operationId ?? `${operation.method} ${operation.path}`;
    const unsupported = unsupportedPart(operation);
    if (unsupported) {
      throw new Error(`${operationId}: ${unsupported} is outside what contractRouting.ts routes (see its comment)`);
    }
    if (!operationIds.has(operationId)) throw new Error(`the contract's operation ${operationId} has no handler`);
    const validators = api.validator.getRequestValidatorsForOperation(operationId);
    const queryParameters = new Set(
      (operation.parameters ?? []).flatMap((parameter) =>
        'in' in parameter && parameter.in === 'query' ? [parameter.name] : [],
      ),
    );
    const integerParameters = (operation.parameters ?? []).flatMap((parameter) =>
      'in' in parameter && parameter.in === 'query' && (parameter.schema as { type?: string })?.type === 'integer'
        ? [parameter.name]
        : [],
    );
    const route: ContractRoute = Object.freeze({
      operationId: operationId as OperationId,
      queryParameters,
      answers400: Object.hasOwn(operation.responses ?? {}, '400'),
      validateQuery(query: Record<string, unknown>): readonly SchemaError[] {
        const notDecimal: SchemaError[] = [];
        for (const name of integerParameters) {
          const value = query[name];
          if (typeof value !== 'string' || decimalInteger.test(value)) continue;
          notDecimal.push({ keyword: 'type', instancePath: `/query/${name}`, params: { type: 'integer' } });
          delete query[name];
        }
        const request = { query };
        return [
          ...notDecimal,
          ...validators.flatMap((validate) => (validate(request) ? [] : ((validate.errors ?? []) as SchemaError[]))),
        ];
      },
    });
    routes.push(route);
    const path = operation.path;
    const methods = byPath.get(path) ?? new Map<string, ContractRoute>();
    methods.set(operation.method.toLowerCase(), route);
    byPath.set(path, methods);
  }
  const missing = [...operationIds].filter((id) => !routes.some((route) => route.operationId === id));
  if (missing.length > 0) throw new Error(`handlers for operations the contract does not have: ${missing.join(', ')}`);

  return {
    routes,
    match(method: string, path: string): RouteMatch {
      // Paths are compared exactly: `/v1/quotes-random/` is not an operation of the contract.
      const methods = byPath.get(path);
      if (!methods) return { notFound: true };
      const wanted = method.toLowerCase();
      const route = methods.get(wanted === 'head' ? 'get' : wanted);
      return route ? { route } : { allowedMethods: allowedMethodsOf([...methods.keys()]) };
    },
  };
}
