import { cloneContract, loadContract } from '@quotes/contract';
import addFormats from 'ajv-formats';
import { type Document, OpenAPIBackend, SetMatchType } from 'openapi-backend';
import { expect } from 'vitest';

let api: Promise<OpenAPIBackend> | undefined;

/** The contract's Quote fields, in its order: what a quote's JSON carries, exactly. */
export const quoteFields: readonly string[] = Object.keys(
  loadContract().components.schemas.Quote?.properties as Record<string, unknown>,
);

function contractApi(): Promise<OpenAPIBackend> {
  api ??= (async () => {
    const backend = new OpenAPIBackend({
      definition: cloneContract() as unknown as Document,
      strict: true,
      customizeAjv: (ajv) => {
        addFormats.default(ajv);
        return ajv;
      },
    });
    await backend.init();
    return backend;
  })();
  return api;
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  contentType: string | null;
  body: unknown;
}

function headerObject(headers: Headers): Record<string, string> {
  const object: Record<string, string> = {};
  headers.forEach((value, name) => {
    object[name] = value;
  });
  return object;
}

/**
 * Fails the test unless the answer is one the contract documents for the operation: the status
 * is listed, the content type is exactly the documented one, the body validates against the
 * schema and the declared headers (required ones present) against theirs.
 */
export async function expectConformsToContract(operationId: string, answer: ApiAnswer): Promise<void> {
  const backend = await contractApi();
  const operation = backend.getOperation(operationId);
  expect(operation, `operation ${operationId}`).toBeDefined();
  const documented = operation!.responses?.[String(answer.status)] as { content?: Record<string, unknown> } | undefined;
  expect(documented, `${operationId} documents status ${answer.status}`).toBeDefined();
  const mediaTypes = Object.keys(documented?.content ?? {});
  if (mediaTypes.length === 0) {
    // A response documented without content (304) must have none.
    expect(answer.contentType, `${operationId} ${answer.status} content type`).toBeNull();
    expect(answer.body, `${operationId} ${answer.status} body`).toBeUndefined();
  } else {
    expect(mediaTypes, `${operationId} ${answer.status} content type`).toContain(answer.contentType);
    const body = backend.validator.validateResponse(answer.body, operationId, answer.status);
    expect(body.errors ?? [], `${operationId} ${answer.status} body: ${JSON.stringify(answer.body)}`).toEqual([]);
  }
  const headers = backend.validator.validateResponseHeaders(headerObject(answer.headers), operationId, {
    statusCode: answer.status,
    setMatchType: SetMatchType.Any,
  });
  expect(headers.errors ?? [], `${operationId} ${answer.status} headers`).toEqual([]);
}

/** Answers outside any operation (unknown path, other method) must still be the contract's Problem. */
export async function expectProblemBody(answer: ApiAnswer): Promise<void> {
  const backend = await contractApi();
  expect(answer.contentType).toBe('application/problem+json');
  // Every operation's 401 is the shared Problem schema; validating against one checks the shape.
  const result = backend.validator.validateResponse(answer.body, 'getUsage', 401);
  expect(result.errors ?? [], JSON.stringify(answer.body)).toEqual([]);
}

export async function operationIdFor(method: string, path: string): Promise<string | undefined> {
  const backend = await contractApi();
  return backend.router
    .getOperations()
    .find((operation) => operation.method === method.toLowerCase() && operation.path === path)?.operationId;
}
