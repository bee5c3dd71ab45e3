import { type ContractDocument, loadContract } from '@quotes/contract';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { contractOperations, type OperationSpec, operationByPath, type ResponseSpec } from '../contract/operations.js';
import { toJsonSchema } from './oasSchema.js';

// ajv-formats is CommonJS with a default export; under NodeNext the callable sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** An HTTP response as the suite saw it, independent of the client that fetched it. */
export interface ObservedResponse {
  readonly method: string;
  /** Path without the query string, e.g. `/v1/quotes-random`. */
  readonly path: string;
  readonly status: number;
  /** Header names in lower case (as fetch and node:http give them). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface ValidationIssue {
  readonly where: 'status' | 'content-type' | 'body' | 'header';
  readonly message: string;
}

export interface ValidationResult {
  /** The operation the response belongs to; undefined for paths outside the contract. */
  readonly operationId: string | undefined;
  readonly issues: readonly ValidationIssue[];
}

const contractId = 'urn:quotes:contract';
const problemMediaType = 'application/problem+json';

function describeErrors(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((error) => {
    const at = error.instancePath || '(root)';
    const extra =
      error.keyword === 'additionalProperties'
        ? ` (${String((error.params as { additionalProperty?: string }).additionalProperty)})`
        : error.keyword === 'enum'
          ? ` (${JSON.stringify(error.data)})`
          : '';
    return `${at} ${error.message ?? error.keyword}${extra}`;
  });
}

function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/**
 * Validates responses against the contract with Ajv over the contract's own schemas: the status
 * must be documented for the operation, the Content-Type must be exactly a declared media type,
 * the body must match that media type's schema and every declared header must match its schema
 * (and be present when required).
 */
export class ContractValidator {
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly operations: readonly OperationSpec[];

  constructor(document: ContractDocument = loadContract()) {
    this.operations = document === loadContract() ? contractOperations() : contractOperations(document);
    // strict: an OpenAPI keyword this converter does not understand must stop the suite, not be ignored.
    this.ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true, verbose: true });
    addFormats(this.ajv);
    const schemas = (document.components.schemas ?? {}) as Record<string, unknown>;
    this.ajv.addSchema({ $id: contractId, definitions: toJsonSchema(schemas) });
  }

  private validatorFor(key: string, schema: unknown): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      const converted = JSON.parse(
        JSON.stringify(toJsonSchema(schema)).replaceAll('"#/definitions/', `"${contractId}#/definitions/`),
      );
      validate = this.ajv.compile(converted);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** The Problem schema, for answers outside the operations (unknown path, other method). */
  private validateProblem(response: ObservedResponse, issues: ValidationIssue[]): void {
    const contentType = response.headers['content-type'];
    if (contentType !== problemMediaType) {
      issues.push({
        where: 'content-type',
        message: `Content-Type is ${JSON.stringify(contentType)}, expected ${problemMediaType}`,
      });
    }
    this.validateJsonBody(response, problemMediaType, { $ref: '#/components/schemas/Problem' }, 'Problem', issues);
  }

  private validateJsonBody(
    response: ObservedResponse,
    mediaType: string,
    schema: unknown,
    key: string,
    issues: ValidationIssue[],
  ): void {
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      issues.push({ where: 'body', message: `body is not JSON: ${JSON.stringify(response.body.slice(0, 120))}` });
      return;
    }
    const validate = this.validatorFor(key, schema);
    if (!validate(body)) {
      for (const message of describeErrors(validate.errors)) issues.push({ where: 'body', message });
    }
    // RFC 9457: the body's status is the HTTP status it was sent with.
    if (
      mediaType === problemMediaType &&
      body &&
      typeof body === 'object' &&
      (body as { status?: unknown }).status !== response.status
    ) {
      issues.push({
        where: 'body',
        message: `problem status ${String((body as { status?: unknown }).status)} differs from HTTP ${response.status}`,
      });
    }
  }

  private validateHeaders(
    response: ObservedResponse,
    spec: ResponseSpec,
    key: string,
    issues: ValidationIssue[],
  ): void {
    for (const header of spec.headers) {
      const value = response.headers[header.name.toLowerCase()];
      if (value === undefined) {
        if (header.required) issues.push({ where: 'header', message: `required header ${header.name} is missing` });
        continue;
      }
      let typed: unknown = value;
      const type = header.schema.type;
      if (type === 'integer' || type === 'number') {
        const pattern = type === 'integer' ? /^-?\d+$/ : /^-?\d+(\.\d+)?$/;
        if (!pattern.test(value)) {
          issues.push({ where: 'header', message: `${header.name}: ${JSON.stringify(value)} is not an ${type}` });
          continue;
        }
        typed = Number(value);
      }
      const validate = this.validatorFor(`${key} header ${header.name}`, header.schema);
      if (!validate(typed)) {
        for (const message of describeErrors(validate.errors)) {
          issues.push({
            where: 'header',
            message: `${header.name}: ${JSON.stringify(value)} ${message.replace(/^\(root\) /, '')}`,
          });
        }
      }
    }
  }

  validate(response: ObservedResponse): ValidationResult {
    const issues: ValidationIssue[] = [];
    const operation = operationByPath(response.method, response.path, this.operations);
    if (!operation) {
      // The contract's description: unknown paths answer 404, other methods on a known path 405
      // with Allow, both as problem details.
      const knownPath = this.operations.some((candidate) => candidate.path === response.path);
      const expected = knownPath ? 405 : 404;
      if (response.status !== expected) {
        issues.push({
          where: 'status',
          message: `${response.method} ${response.path} answered ${response.status}, expected ${expected}`,
        });
      }
      if (expected === 405 && !response.headers.allow)
        issues.push({ where: 'header', message: '405 without an Allow header' });
      this.validateProblem(response, issues);
      return { operationId: undefined, issues };
    }
    const spec = operation.responses.get(response.status);
    if (!spec) {
      const declared = [...operation.responses.keys()].join(', ');
      issues.push({
        where: 'status',
        message: `${operation.operationId} answered ${response.status}, which the contract does not declare (declared: ${declared})`,
      });
      return { operationId: operation.operationId, issues };
    }
    const key = `${operation.operationId} ${response.status}`;
    const contentType = response.headers['content-type'];
    if (spec.content.size === 0) {
      if (response.body.length > 0)
        issues.push({ where: 'body', message: 'the contract declares no body for this response' });
    } else {
      if (contentType === undefined || !spec.content.has(contentType)) {
        const declared = [...spec.content.keys()].join(', ');
        issues.push({
          where: 'content-type',
          message: `Content-Type is ${JSON.stringify(contentType ?? null)}, the contract declares exactly ${declared}`,
        });
      }
      // Still check the body against the media type it claims to be (parameters such as charset
      // stripped), so one response reports every way it is wrong.
      const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
      const schema = mediaType === undefined ? undefined : spec.content.get(mediaType);
      if (mediaType !== undefined && schema !== undefined && isJsonMediaType(mediaType)) {
        this.validateJsonBody(response, mediaType, schema, `${key} ${mediaType}`, issues);
      }
    }
    this.validateHeaders(response, spec, key, issues);
    return { operationId: operation.operationId, issues };
  }
}
