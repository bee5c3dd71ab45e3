import { type ContractDocument, loadContract, readContractRules } from '@quotes/contract';

/** A schema object as written in the contract (OpenAPI 3.0 dialect). */
export type OasSchema = Record<string, unknown>;

export interface HeaderSpec {
  readonly name: string;
  readonly required: boolean;
  readonly schema: OasSchema;
}

export interface ResponseSpec {
  readonly status: number;
  /** Media type -> schema; empty when the response has no body. */
  readonly content: ReadonlyMap<string, OasSchema>;
  readonly headers: readonly HeaderSpec[];
}

export interface ParameterSpec {
  readonly name: string;
  readonly in: string;
  readonly required: boolean;
  readonly schema: OasSchema;
}

export interface OperationSpec {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly summary: string;
  readonly description: string;
  readonly parameters: readonly ParameterSpec[];
  /** The media types of the request body (empty: no body). */
  readonly requestMediaTypes: readonly string[];
  readonly responses: ReadonlyMap<number, ResponseSpec>;
  /** The statuses at which a call counts against the allowance (`x-counted-statuses`). */
  readonly countedStatuses: readonly number[];
}

type Json = Record<string, unknown>;

const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Follows a local `#/components/...` reference; the contract uses no external ones. */
function resolve(document: ContractDocument, node: unknown): Json {
  let current = node as Json;
  for (let hops = 0; typeof current?.$ref === 'string'; hops++) {
    if (hops > 10) throw new Error(`reference cycle at ${String(current.$ref)}`);
    const ref = current.$ref as string;
    if (!ref.startsWith('#/')) throw new Error(`unsupported external reference ${ref}`);
    let target: unknown = document;
    for (const segment of ref.slice(2).split('/')) {
      target = (target as Json | undefined)?.[segment.replaceAll('~1', '/').replaceAll('~0', '~')];
    }
    if (target === undefined) throw new Error(`dangling reference ${ref}`);
    current = target as Json;
  }
  return current;
}

function readResponse(document: ContractDocument, status: string, node: unknown): ResponseSpec {
  if (!/^[1-5]\d\d$/.test(status)) {
    // Ranges and `default` would make "every documented status is reached" meaningless.
    throw new Error(`response "${status}" is not a plain status code; the conformance suite cannot target it`);
  }
  const response = resolve(document, node);
  const content = new Map<string, OasSchema>();
  for (const [mediaType, media] of Object.entries((response.content ?? {}) as Json)) {
    content.set(mediaType, ((media as Json).schema ?? {}) as OasSchema);
  }
  const headers = Object.entries((response.headers ?? {}) as Json).map(([name, header]) => {
    const resolved = resolve(document, header);
    return { name, required: resolved.required === true, schema: (resolved.schema ?? {}) as OasSchema };
  });
  return { status: Number(status), content, headers };
}

function readOperations(document: ContractDocument): OperationSpec[] {
  const counted = readContractRules(document).countedStatuses;
  const operations: OperationSpec[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(item as Json)) {
      if (!httpMethods.includes(method)) continue;
      const operation = raw as Json;
      const parameters = ((operation.parameters ?? []) as unknown[]).map((parameter) => {
        const resolved = resolve(document, parameter);
        return {
          name: String(resolved.name),
          in: String(resolved.in),
          required: resolved.required === true,
          schema: (resolved.schema ?? {}) as OasSchema,
        };
      });
      const responses = new Map<number, ResponseSpec>();
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Json)) {
        const spec = readResponse(document, status, response);
        responses.set(spec.status, spec);
      }
      const requestBody = operation.requestBody ? resolve(document, operation.requestBody) : undefined;
      operations.push({
        operationId: String(operation.operationId),
        method: method.toUpperCase(),
        path,
        requestMediaTypes: Object.keys((requestBody?.content ?? {}) as Json),
        summary: String(operation.summary ?? ''),
        description: String(operation.description ?? ''),
        parameters,
        responses,
        countedStatuses: counted.get(String(operation.operationId)) ?? [],
      });
    }
  }
  return operations;
}

let cached: readonly OperationSpec[] | undefined;

/** Every operation of the contract with its responses, references resolved. */
export function contractOperations(document?: ContractDocument): readonly OperationSpec[] {
  if (document) return readOperations(document);
  cached ??= Object.freeze(readOperations(loadContract()));
  return cached;
}

export function operationById(operationId: string, operations = contractOperations()): OperationSpec {
  const found = operations.find((operation) => operation.operationId === operationId);
  if (!found) throw new Error(`the contract has no operation ${operationId}`);
  return found;
}

export function operationByPath(
  method: string,
  path: string,
  operations = contractOperations(),
): OperationSpec | undefined {
  return operations.find((operation) => operation.path === path && operation.method === method.toUpperCase());
}

/** One documented response of one operation: what Dredd turns into one transaction. */
export interface DocumentedResponse {
  readonly operation: OperationSpec;
  readonly status: number;
  readonly mediaType: string;
  /** Dredd's transaction name for it: `path > summary > status > media type`. */
  readonly transactionName: string;
}

export function documentedResponses(operations = contractOperations()): DocumentedResponse[] {
  const list: DocumentedResponse[] = [];
  for (const operation of operations) {
    for (const [status, response] of operation.responses) {
      // Dredd makes one transaction per response media type, a body-less response still one, and
      // that again for each request media type (under the same name).
      const mediaTypes = response.content.size > 0 ? [...response.content.keys()] : [''];
      for (const _requestMediaType of operation.requestMediaTypes.length > 0 ? operation.requestMediaTypes : ['']) {
        for (const mediaType of mediaTypes) {
          const name = [operation.path, operation.summary, String(status), mediaType].filter(Boolean).join(' > ');
          list.push({ operation, status, mediaType, transactionName: name });
        }
      }
    }
  }
  return list;
}

/** The statuses at which a call of this operation counts against the allowance, from the contract's data. */
export function countedStatuses(operation: OperationSpec): readonly number[] {
  return operation.countedStatuses;
}
