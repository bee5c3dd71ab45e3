import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** Absolute path of openapi/quotes.yaml, for tools that take a file (Prism, Dredd, openapi-backend). */
export const contractPath: string = fileURLToPath(new URL('../quotes.yaml', import.meta.url));

/** The minimal shape this package relies on; consumers that need more cast to their own types. */
export interface ContractDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, { operationId: string; parameters?: Array<{ $ref?: string; name?: string }> }>>;
  components: {
    schemas: Record<string, { enum?: string[]; pattern?: string; [key: string]: unknown }>;
    parameters: Record<string, { name: string; in: string; schema: Record<string, unknown> }>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

let cached: ContractDocument | undefined;

/** The parsed contract. Parsed once per process; callers must treat it as read-only. */
export function loadContract(): ContractDocument {
  cached ??= parse(readFileSync(contractPath, 'utf8')) as ContractDocument;
  return cached;
}

/** The contract as a fresh, mutable object (openapi-backend and Dredd mutate what they are given). */
export function cloneContract(): ContractDocument {
  return structuredClone(loadContract());
}

interface ResponseObject {
  $ref?: string;
  content?: Record<string, { example?: unknown }>;
}

/**
 * The example the contract documents for one response of an operation (GET unless named; following a
 * `#/components/responses/...` reference): what the mock serves, and what a floor or a test
 * compares against.
 */
export function responseExample(path: string, status: string, method: 'get' | 'post' = 'get'): unknown {
  const contract = loadContract();
  const operation = contract.paths[path]?.[method] as unknown as
    | { responses: Record<string, ResponseObject> }
    | undefined;
  let response = operation?.responses[status];
  if (response?.$ref) {
    const name = response.$ref.replace('#/components/responses/', '');
    response = (contract.components.responses as Record<string, ResponseObject>)[name];
  }
  const content = response?.content ?? {};
  const media = content['application/json'] ?? content['application/problem+json'];
  if (media?.example === undefined) throw new Error(`no single example for ${path} ${status}`);
  return media.example;
}
