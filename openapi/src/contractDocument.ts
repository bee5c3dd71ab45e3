import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

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

/**
 * The contract as the build parsed it (dist/quotes.json, beside this module), with the digest of
 * the YAML it was parsed from: a start then reads JSON (milliseconds) instead of parsing 55 KB
 * of YAML (about half a second of CPU, cold), and a YAML edited since the build is parsed anew.
 */
export interface ParsedContract {
  readonly digest: string;
  readonly document: ContractDocument;
}

export const parsedContractPath: string = fileURLToPath(new URL('./quotes.json', import.meta.url));

/** The YAML library, loaded only when a text is parsed: a start that reads the build's JSON never loads its 70 modules. */
function parse(yamlText: string): unknown {
  const yaml = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yaml.parse(yamlText);
}

export function contractDigest(yamlText: string): string {
  return createHash('sha256').update(yamlText).digest('hex');
}

export function parsedContract(yamlText: string): ParsedContract {
  return { digest: contractDigest(yamlText), document: parse(yamlText) as ContractDocument };
}

/** `yamlText` parsed: `built`'s document when it was parsed from this very text, else the YAML itself. */
export function readContract(yamlText: string, built: string | undefined): ContractDocument {
  if (built !== undefined) {
    const parsed = JSON.parse(built) as ParsedContract;
    if (parsed.digest === contractDigest(yamlText)) return parsed.document;
  }
  return parse(yamlText) as ContractDocument;
}

function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    // Run from the sources (tsx, vitest), where the build's JSON is not.
    return undefined;
  }
}

let cached: ContractDocument | undefined;

/** The parsed contract. Parsed once per process; callers must treat it as read-only. */
export function loadContract(): ContractDocument {
  cached ??= readContract(readFileSync(contractPath, 'utf8'), readIfThere(parsedContractPath));
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
