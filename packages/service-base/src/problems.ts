import {
  type ParameterError,
  type Problem as ProblemSchema,
  type ProblemType,
  problemTypePrefix,
} from '@quotes/contract';

/**
 * Every kind of problem the service answers with: one place owns the URI (from the contract's
 * ProblemType enum), the title and the status. Handlers throw a Problem; one middleware renders it.
 */
/** The kinds the contract's ProblemType enum names: the table below must have exactly these. */
type KindOf<Uri> = Uri extends `urn:quotes:problem:${infer Kind}` ? Kind : never;
type ContractProblemKind = KindOf<ProblemType>;

const problemKinds = {
  'invalid-request': { status: 400, title: 'Invalid request' },
  'missing-api-key': { status: 401, title: 'API key required' },
  'invalid-api-key': { status: 401, title: 'Invalid API key' },
  'conflicting-api-keys': { status: 401, title: 'Conflicting API keys' },
  'revoked-api-key': { status: 403, title: 'API key revoked' },
  'expired-api-key': { status: 403, title: 'API key expired' },
  'origin-not-allowed': { status: 403, title: 'Origin not allowed for this key' },
  'plan-limit': { status: 403, title: 'Beyond your plan' },
  'no-match': { status: 404, title: 'No matching quote' },
  'not-found': { status: 404, title: 'Not found' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'rate-limited': { status: 429, title: 'Too many calls at once' },
  'allowance-exhausted': { status: 429, title: 'Allowance used up' },
  'internal-error': { status: 500, title: 'Internal server error' },
  'service-unavailable': { status: 503, title: 'Service unavailable' },
  'cross-site-request': { status: 403, title: 'Cross-site request refused' },
  'request-too-large': { status: 413, title: 'Request too large' },
  'too-many-key-requests': { status: 429, title: 'Too many key requests' },
} as const satisfies Record<ContractProblemKind, { status: number; title: string }>;

export type ProblemKind = keyof typeof problemKinds;

/** A parameter named in a 400, as the contract's ParameterError. */
export type { ParameterError };

/** The body the contract's Problem schema describes (the type generated from it). */
export type ProblemBody = ProblemSchema;

export function problemTypeUri(kind: ProblemKind): ProblemType {
  return `${problemTypePrefix}${kind}` as ProblemType;
}

export class Problem extends Error {
  readonly kind: ProblemKind;
  readonly status: number;
  readonly title: string;
  readonly errors: ParameterError[] | undefined;
  /** Response headers the problem carries (Allow on 405, allowance headers on 429 and 404). */
  readonly headers: Record<string, string>;
  /** The key the refused call presented, when it was recognised (its usage history counts the refusal). */
  keyId: string | undefined;
  /** A counted answer (a 404 no-match): written once it is journaled (see CallSlot). */
  counted: { journal(send: () => void): void } | undefined;

  constructor(
    kind: ProblemKind,
    detail: string,
    options: { errors?: ParameterError[]; headers?: Record<string, string>; keyId?: string } = {},
  ) {
    super(detail);
    this.name = 'Problem';
    this.kind = kind;
    this.status = problemKinds[kind].status;
    this.title = problemKinds[kind].title;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.keyId = options.keyId;
    if (this.status === 401) this.headers['WWW-Authenticate'] = authenticateChallenge(kind);
  }

  body(instance?: string): ProblemBody {
    return {
      type: problemTypeUri(this.kind),
      title: this.title,
      status: this.status,
      detail: this.message,
      ...(instance ? { instance } : {}),
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }
}

/**
 * The challenge of a 401 (RFC 9110 section 11.6.1): one per scheme the contract accepts. Bearer
 * follows RFC 6750 (an error code only when a key was presented); the X-API-Key scheme has no
 * registered name, so it is named as the contract's security scheme names it.
 */
export function authenticateChallenge(kind: ProblemKind): string {
  const bearerError =
    kind === 'invalid-api-key'
      ? ', error="invalid_token"'
      : kind === 'conflicting-api-keys'
        ? ', error="invalid_request"'
        : '';
  return `Bearer realm="quotes"${bearerError}, ApiKey realm="quotes", header="X-API-Key"`;
}

/** The database cannot be reached: a 503 the client retries after a couple of seconds. */
export function serviceUnavailable(): Problem {
  return new Problem('service-unavailable', 'The quote database is unreachable; please retry in a few seconds.', {
    headers: { 'Retry-After': '2' },
  });
}

/** quotes-random's 404: no quote matches the filters, named as the caller gave them ("category=grief, era=Ancient"). */
export function noMatch(filters: string): Problem {
  return new Problem('no-match', filters ? `No quote matches ${filters}.` : 'No quote matches: the corpus is empty.');
}

/** A 400 naming every bad parameter; the detail repeats them so a human sees it all in one line. */
export function invalidRequest(errors: ParameterError[]): Problem {
  const detail = errors.map((error) => `${error.parameter}: ${error.message}`).join('; ');
  return new Problem('invalid-request', detail, { errors });
}

export const problemStatuses: Readonly<Record<ProblemKind, number>> = Object.freeze(
  Object.fromEntries(Object.entries(problemKinds).map(([kind, value]) => [kind, value.status])) as Record<
    ProblemKind,
    number
  >,
);

/** Each kind's title: what a refused call's outcome means, in words (the holders' page lists refusals by it). */
export const problemTitles: Readonly<Record<ProblemKind, string>> = Object.freeze(
  Object.fromEntries(Object.entries(problemKinds).map(([kind, value]) => [kind, value.title])) as Record<
    ProblemKind,
    string
  >,
);

/**
 * A refused call's outcome as every page shows it (the holder's page, the operator's console):
 * its title in words and the code, e.g. "Origin not allowed for this key (origin-not-allowed)".
 */
export function refusalReason(outcome: string): string {
  const title = (problemTitles as Record<string, string>)[outcome];
  return title === undefined ? outcome : `${title} (${outcome})`;
}
