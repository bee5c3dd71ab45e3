import { cloneContract } from '@quotes/contract';
import addFormats from 'ajv-formats';
import { type Context, type Document, OpenAPIBackend, type Operation } from 'openapi-backend';
import { Problem } from '../problems.js';
import type { ServiceRuntime } from '../serviceRuntime.js';
import { type ApiExchange, contractHeaders } from './apiExchange.js';
import {
  createOperationHandlers,
  createSecurityHandler,
  unauthorizedHandler,
  validationFailHandler,
} from './operationHandlers.js';

interface QueryShape {
  declared: ReadonlySet<string>;
  answers400: boolean;
}

function queryShapeOf(operation: Operation): QueryShape {
  const declared = new Set<string>();
  for (const parameter of operation.parameters ?? []) {
    if ('in' in parameter && parameter.in === 'query') declared.add(parameter.name);
  }
  return { declared, answers400: Object.hasOwn(operation.responses ?? {}, '400') };
}

/**
 * Two costs openapi-backend pays on every request that this contract never needs, together a
 * fifth of the server's CPU under load: it rebuilds the operation list (through lodash) each time
 * it routes, and it parses the request three times (before routing, after it, and again to
 * validate), each time copying it, lower-casing its headers, parsing cookies and compiling the
 * path template. The contract never changes in a running process, and its operations have only
 * static paths, query parameters and a few plain-string headers, which ApiExchange has already parsed; so the list is built
 * once and parsing is a copy. Checked here, so a contract that grows path, header or cookie
 * parameters or a request body fails at start-up instead of being half-parsed.
 */
/** A schema nothing can fail: `type: string` with no constraint (a header the server only compares). */
function isPlainString(schema: unknown): boolean {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    Object.keys(schema).every((key) => key === 'type') &&
    (schema as { type?: unknown }).type === 'string'
  );
}

function streamlineRouter(api: OpenAPIBackend): void {
  const operations = api.router.getOperations();
  const forwarded = new Set<string>(contractHeaders);
  for (const operation of operations) {
    const unsupported = (operation.parameters ?? []).find(
      (parameter) =>
        !('in' in parameter) ||
        !(
          parameter.in === 'query' ||
          (parameter.in === 'header' && forwarded.has(parameter.name.toLowerCase()) && isPlainString(parameter.schema))
        ),
    );
    if (operation.path.includes('{') || unsupported || operation.requestBody) {
      throw new Error(
        `${operation.operationId ?? operation.path}: the streamlined router handles static paths, query parameters and the headers ApiExchange forwards only (see openApiBackend.ts)`,
      );
    }
  }
  api.router.getOperations = () => operations;
  const router = api.router;
  router.parseRequest = (request) => ({
    ...router.normalizeRequest(request),
    params: {},
    // Validation coerces the query it is given in place: each parse hands out its own copy.
    query: { ...(request.query as Record<string, string>) },
    headers: request.headers as Record<string, string | string[]>,
    cookies: {},
    requestBody: undefined,
  });
}

const normalisedPath = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/**
 * openapi-backend over the contract file: routing, security and request validation come from
 * the contract; the handlers are keyed by operationId. Order of stages (its own): routing (404,
 * 405) -> security (401, 403 revoked/expired) -> validation (400) -> operation (plan 403, 429).
 */
export async function createApiBackend(runtime: ServiceRuntime): Promise<OpenAPIBackend> {
  const queryShapes = new Map<string, QueryShape>();
  const methodsByPath = new Map<string, string[]>();
  const api = new OpenAPIBackend({
    definition: cloneContract() as unknown as Document,
    strict: true,
    coerceTypes: true,
    // Only query parameters can fail validation: operations without them (their query is ignored,
    // see ApiExchange) skip it, and header parameters are plain strings (checked at start-up).
    validate: (context: Context) =>
      (context.operation?.parameters ?? []).some((parameter) => 'in' in parameter && parameter.in === 'query'),
    ajvOpts: { allErrors: true },
    customizeAjv: (ajv) => {
      addFormats.default(ajv);
      return ajv;
    },
  });
  const securityHandler = createSecurityHandler(runtime);
  api.registerSecurityHandler('ApiKeyHeader', securityHandler);
  api.registerSecurityHandler('BearerAuth', securityHandler);
  api.register({
    ...createOperationHandlers(runtime),
    postRoutingHandler: (context: Context, exchange: ApiExchange) => {
      if (!context.operation?.operationId) return;
      const shape = queryShapes.get(context.operation.operationId);
      if (shape) exchange.screen(shape.declared, shape.answers400);
    },
    unauthorizedHandler,
    validationFail: validationFailHandler,
    notFound: (context: Context) => {
      throw new Problem(
        'not-found',
        `Nothing at ${context.request.path}; the operations are under /v1 (see openapi/quotes.yaml).`,
      );
    },
    methodNotAllowed: (context: Context) => {
      const allowed = methodsByPath.get(normalisedPath(context.request.path)) ?? [];
      throw new Problem(
        'method-not-allowed',
        `${context.request.method.toUpperCase()} is not allowed on ${context.request.path}; use ${allowed.join(', ')}.`,
        {
          headers: { Allow: allowed.join(', ') },
        },
      );
    },
  });
  await api.init();
  streamlineRouter(api);
  for (const operation of api.router.getOperations()) {
    if (operation.operationId) queryShapes.set(operation.operationId, queryShapeOf(operation));
    const path = normalisedPath(operation.path);
    methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), operation.method.toUpperCase()]);
  }
  return api;
}
