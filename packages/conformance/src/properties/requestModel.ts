/** The quote operations the generator targets, by operationId. */
export type QuoteOperationId = 'getRandomQuote' | 'listQuotes' | 'listFilterValues' | 'getUsage';

/** Which credential a generated request carries. */
export type CredentialKind =
  | 'active' // an active key of `plan`
  | 'nearlyExhausted' // an active key a few calls short of its allowance
  | 'exhausted'
  | 'revoked'
  | 'expired'
  | 'unknown'
  | 'missing'
  | 'conflicting';

/** How the key travels: X-API-Key, Authorization Bearer, or both carrying the same key. */
export type KeyTransport = 'header' | 'bearer' | 'both';

export interface GeneratedCredential {
  readonly kind: CredentialKind;
  /** For `active`: which plan's key. */
  readonly plan?: string;
  readonly transport: KeyTransport;
}

/** One query parameter exactly as it goes on the wire, and what a server decodes it to. */
export interface WireParameter {
  /** The name as decoded (what the server sees). */
  readonly name: string;
  /** The value as decoded; null when the parameter had no `=` at all. */
  readonly value: string | null;
  /** `name` or `name=value`, percent-encoded the way this request chose. */
  readonly wire: string;
  /** The raw text was deliberately malformed (e.g. `%FF`): the decoded value is uncertain. */
  readonly malformed?: boolean;
}

export interface GeneratedRequest {
  readonly operationId: QuoteOperationId;
  readonly credential: GeneratedCredential;
  readonly parameters: readonly WireParameter[];
}

export function wireQuery(parameters: readonly WireParameter[]): string {
  return parameters.length > 0 ? `?${parameters.map((parameter) => parameter.wire).join('&')}` : '';
}

/** A short, readable form for failure reports (no keys). */
export function describeRequest(request: GeneratedRequest, path: string): string {
  const who =
    request.credential.kind === 'active' ? `${request.credential.plan} key` : `${request.credential.kind} key`;
  return `GET ${path}${wireQuery(request.parameters)} (${who} via ${request.credential.transport})`;
}
