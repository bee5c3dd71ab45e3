import { randomBytes } from 'node:crypto';
import { problemTypePrefix, rules } from '@quotes/contract';
import type { DocumentedResponse } from '../contract/operations.js';
import type { TransactionShape } from './fixture.js';

/** Query parameters by name, e.g. `{ category: 'Grief & Loss', era: 'Modern' }`. */
export type Filters = Readonly<Record<string, string>>;

/** Keys the Dredd run needs on a real target, each in the state its transactions rely on. */
export interface DreddKeys {
  /** Active key of a plan with a monthly limit (so every allowance header is sent), 5 filters and `faith`: professional. */
  readonly limited?: string;
  /** Active key whose plan allows one filter: trial (two filters make the plan-limit 403). */
  readonly oneFilter?: string;
  /** A second active key, different from `limited`, for the conflicting-keys 401. */
  readonly other?: string;
  readonly revoked?: string;
  readonly expired?: string;
  /** Active key with its monthly allowance used up. */
  readonly exhausted?: string;
}

/** What the target's data makes possible, discovered before the run. */
export interface DreddData {
  /** Filters (every filter parameter) that match at least one quote. */
  readonly matching?: Filters;
  /** Filters that match no quote. */
  readonly impossible?: Filters;
  /** The current ETag of the filter values, for the 304 of quotes-categories. */
  readonly filterValuesEtag?: string;
  /** Why a piece above was not found, as the search met it (a skip names this, not a guess). */
  readonly why?: Readonly<Partial<Record<'matching' | 'impossible' | 'filterValuesEtag', string>>>;
}

export interface ServerPlanOptions {
  readonly keys: DreddKeys;
  readonly data: DreddData;
  /** Whether the suite can take the target's database away (only on a database it prepared itself). */
  readonly canCauseOutage: boolean;
  /** A key no deployment knows. */
  readonly unknownKey: string;
}

const problem = (kind: string) => `${problemTypePrefix}${kind}`;
const noMatching = 'no filter combination matching a quote was found';
/** Each filter's first value in the contract's `x-filter` values: valid, whatever the data. */
const firstValue = new Map(rules.filters.map((rule) => [rule.name, rule.values[0]]));

export function queryString(parameters: Filters): string {
  const text = new URLSearchParams(Object.entries(parameters)).toString();
  return text ? `?${text}` : '';
}

function filterNames(response: DocumentedResponse): string[] {
  return response.operation.parameters
    .filter((parameter) => parameter.in === 'query' && parameter.name !== 'limit' && parameter.name !== 'offset')
    .map((parameter) => parameter.name);
}

function hasParameter(response: DocumentedResponse, name: string): boolean {
  return response.operation.parameters.some((parameter) => parameter.name === name);
}

/** Only the filters this operation accepts (all of them, on the quote operations). */
function filtersFor(response: DocumentedResponse, filters: Filters): Filters {
  const accepted = new Set(filterNames(response));
  return Object.fromEntries(Object.entries(filters).filter(([name]) => accepted.has(name)));
}

function withKey(key: string): Record<string, string> {
  return { 'X-API-Key': key };
}

type Reacher = (response: DocumentedResponse) => TransactionShape;

function needs(
  what: string,
  value: string | undefined,
  purpose: string,
  shape: (value: string) => Omit<TransactionShape, 'purpose'>,
): TransactionShape {
  return value === undefined ? { purpose, skip: `needs ${what}` } : { purpose, ...shape(value) };
}

/**
 * How each documented status is reached on a real target. Statuses missing here get no shape,
 * so a response added to the contract fails the run until someone teaches this table to reach it.
 */
function serverReachers(options: ServerPlanOptions): Record<number, Reacher> {
  const { keys, data } = options;
  let planLimitShown = false;
  let keyStateIndex = 0;
  let unauthorizedIndex = 0;
  return {
    200: (response) => {
      const filters = data.matching ? filtersFor(response, data.matching) : {};
      if (filterNames(response).length > 0 && keys.limited && !data.matching) {
        return { purpose: 'limited-plan key, filters matching a quote', skip: data.why?.matching ?? noMatching };
      }
      const page: Filters = hasParameter(response, 'limit') ? { limit: '5', offset: '0' } : {};
      const count = Object.keys(filters).length;
      const purpose =
        count > 0 ? `limited-plan key, ${count} filters matching a quote` : 'limited-plan key (every allowance header)';
      return needs('an active professional key (--key-professional)', keys.limited, purpose, (key) => ({
        uri: `${response.operation.path}${queryString({ ...filters, ...page })}`,
        headers: withKey(key),
      }));
    },
    304: (response) => {
      const purpose = 'If-None-Match with the current ETag -> not modified';
      if (keys.limited && !data.filterValuesEtag)
        return { purpose, skip: data.why?.filterValuesEtag ?? 'the filter values carried no ETag to send back' };
      return needs('an active professional key (--key-professional)', keys.limited, purpose, (key) => ({
        uri: response.operation.path,
        headers: { ...withKey(key), 'If-None-Match': data.filterValuesEtag! },
      }));
    },
    400: (response) => {
      // A bad `limit` where there is one, an unknown era where there is an era, else an unknown parameter.
      const [parameter, value, purpose] = hasParameter(response, 'limit')
        ? ['limit', '0', 'limit=0 -> invalid-request']
        : hasParameter(response, 'era')
          ? ['era', 'Jurassic', 'unknown era -> invalid-request']
          : ['conformance_unknown', 'x', 'unknown parameter -> invalid-request'];
      return needs('an active professional key (--key-professional)', keys.limited, purpose, (key) => ({
        uri: `${response.operation.path}${queryString({ [parameter]: value })}`,
        headers: withKey(key),
        expectProblemType: problem('invalid-request'),
        expectErrorParameters: [parameter],
      }));
    },
    401: (response) => {
      const variant = unauthorizedIndex++ % 4;
      const uri = response.operation.path;
      if (variant === 0)
        return { purpose: 'no key -> missing-api-key', uri, expectProblemType: problem('missing-api-key') };
      if (variant === 1) {
        return {
          purpose: 'unknown key -> invalid-api-key',
          uri,
          headers: withKey(options.unknownKey),
          expectProblemType: problem('invalid-api-key'),
        };
      }
      if (variant === 2) {
        return needs(
          'two active keys (--key-professional and one more)',
          keys.limited && keys.other,
          'two different keys -> conflicting-api-keys',
          () => ({
            uri,
            headers: { 'X-API-Key': keys.limited!, Authorization: `Bearer ${keys.other!}` },
            expectProblemType: problem('conflicting-api-keys'),
          }),
        );
      }
      return {
        purpose: 'unknown key as Bearer -> invalid-api-key',
        uri,
        headers: { Authorization: `Bearer ${options.unknownKey}` },
        expectProblemType: problem('invalid-api-key'),
      };
    },
    403: (response) => {
      const names = filterNames(response);
      // The first operation with filters shows the plan limit; the others alternate revoked / expired.
      if (names.length >= 2 && !planLimitShown) {
        planLimitShown = true;
        // Plan rules come before the data in the order of checks: any two valid values will do.
        const two = Object.fromEntries(
          names.slice(0, 2).map((name) => [name, data.matching?.[name] ?? firstValue.get(name) ?? '']),
        );
        return needs(
          'an active trial key (--key-trial)',
          keys.oneFilter,
          'trial key with 2 filters -> plan-limit',
          (key) => ({
            uri: `${response.operation.path}${queryString(two)}`,
            headers: withKey(key),
            expectProblemType: problem('plan-limit'),
          }),
        );
      }
      const revoked = keyStateIndex++ % 2 === 0;
      return revoked
        ? needs('a revoked key (--key-revoked)', keys.revoked, 'revoked key -> revoked-api-key', (key) => ({
            uri: response.operation.path,
            headers: withKey(key),
            expectProblemType: problem('revoked-api-key'),
          }))
        : needs('an expired key (--key-expired)', keys.expired, 'expired key -> expired-api-key', (key) => ({
            uri: response.operation.path,
            headers: withKey(key),
            expectProblemType: problem('expired-api-key'),
          }));
    },
    404: (response) => {
      if (keys.limited && !data.impossible)
        return {
          purpose: 'filters matching no quote -> no-match',
          skip: data.why?.impossible ?? 'no filter combination matching nothing was found',
        };
      return needs(
        'an active professional key (--key-professional)',
        keys.limited,
        'filters matching no quote -> no-match',
        (key) => ({
          uri: `${response.operation.path}${queryString(filtersFor(response, data.impossible!))}`,
          headers: withKey(key),
          expectProblemType: problem('no-match'),
        }),
      );
    },
    429: (response) =>
      needs(
        'a key with its allowance used up (--key-exhausted)',
        keys.exhausted,
        'allowance used up -> allowance-exhausted',
        (key) => ({
          uri: response.operation.path,
          headers: withKey(key),
          expectProblemType: problem('allowance-exhausted'),
        }),
      ),
    503: (response) => {
      const purpose = 'database stopped for this call -> service-unavailable';
      if (!options.canCauseOutage) {
        return {
          purpose,
          skip: 'needs control of the target database: only checked on a server this suite starts itself',
        };
      }
      return needs('an active professional key (--key-professional)', keys.limited, purpose, (key) => ({
        uri: response.operation.path,
        headers: withKey(key),
        outage: true,
        expectProblemType: problem('service-unavailable'),
      }));
    },
  };
}

/**
 * A request for a key, as JSON and as a form (Dredd sends one transaction per request media
 * type); complete unless `fields` say otherwise; a fresh address per run, at example.com
 * (RFC 2606: mail to it goes nowhere).
 */
function keyRequestBodies(fields: Record<string, string | boolean> = {}): { body: string; formBody: string } {
  const request: Record<string, string | boolean> = {
    email: `conformance-${randomBytes(6).toString('hex')}@example.com`,
    name: 'Conformance suite',
    application: `Conformance run ${randomBytes(6).toString('hex')}`,
    plan: 'trial',
    use: 'Checks that the service keeps its contract.',
    accept_terms: true,
    ...fields,
  };
  const form = new URLSearchParams(
    Object.entries(request).map(([name, value]): [string, string] => [name, String(value)]),
  );
  return { body: JSON.stringify(request), formBody: form.toString() };
}

/** The key request (POST /keys/requests): no key; each status reached by its body or headers. */
function keyRequestReachers(options: ServerPlanOptions): Record<number, Reacher> {
  return {
    202: () => ({ purpose: 'a complete request -> received', ...keyRequestBodies() }),
    400: () => ({
      purpose: 'only an e-mail address -> invalid-request naming the missing fields',
      body: JSON.stringify({ email: 'conformance@example.com' }),
      formBody: 'email=conformance%40example.com',
      expectProblemType: problem('invalid-request'),
      expectErrorParameters: ['name', 'application', 'use', 'accept_terms'],
    }),
    403: () => ({
      purpose: 'posted from another site -> cross-site-request',
      headers: { Origin: 'https://conformance.invalid', 'Sec-Fetch-Site': 'cross-site' },
      ...keyRequestBodies(),
      expectProblemType: problem('cross-site-request'),
    }),
    413: () => ({
      purpose: 'a body over 16 KB -> request-too-large',
      ...keyRequestBodies({ use: 'x'.repeat(17_000) }),
      expectProblemType: problem('request-too-large'),
    }),
    429: () => ({
      // The hourly bound per e-mail address (3 by default) is reached before the one per client
      // address (5), so the form's own 202 after it is still admitted.
      purpose: 'the same e-mail address asking again and again -> too-many-key-requests',
      ...keyRequestBodies(),
      repeatBefore: 3,
      expectProblemType: problem('too-many-key-requests'),
    }),
    503: () => {
      const purpose = 'database stopped for this request -> service-unavailable';
      if (!options.canCauseOutage)
        return {
          purpose,
          skip: 'needs control of the target database: only checked on a server this suite starts itself',
        };
      return { purpose, ...keyRequestBodies(), outage: true, expectProblemType: problem('service-unavailable') };
    },
  };
}

function plan(
  expected: readonly DocumentedResponse[],
  reachers: Record<number, Reacher>,
  keyRequests: Record<number, Reacher> = reachers,
): Record<string, TransactionShape> {
  const shapes: Record<string, TransactionShape> = {};
  for (const response of expected) {
    const reach = (response.operation.operationId === 'requestKey' ? keyRequests : reachers)[response.status];
    if (reach) shapes[response.transactionName] = reach(response);
  }
  return shapes;
}

/** Shapes for a real server: each documented response reached the way a client would reach it. */
export function planServerTransactions(
  expected: readonly DocumentedResponse[],
  options: ServerPlanOptions,
): Record<string, TransactionShape> {
  return plan(expected, serverReachers(options), keyRequestReachers(options));
}

/**
 * Shapes for the Prism mock: `Prefer: code=...` picks the documented response. Any key value
 * passes Prism's security check; the 401 goes without one, which Prism answers itself.
 */
export function planMockTransactions(expected: readonly DocumentedResponse[]): Record<string, TransactionShape> {
  const shapes: Record<string, TransactionShape> = {};
  for (const response of expected) {
    const prefer = { Prefer: `code=${response.status}` };
    // Prism validates the body before it picks the response: the key request sends a valid one.
    if (response.operation.operationId === 'requestKey') {
      shapes[response.transactionName] = {
        purpose: `a complete key request, Prefer: code=${response.status}`,
        headers: prefer,
        ...keyRequestBodies(),
      };
      continue;
    }
    shapes[response.transactionName] =
      response.status === 401
        ? { purpose: 'no key, Prefer: code=401', headers: prefer }
        : { purpose: `Prefer: code=${response.status}`, headers: { ...withKey('qk_conformance_mock'), ...prefer } };
  }
  return shapes;
}
