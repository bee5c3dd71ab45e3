import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { contractOperations, operationById } from '../contract/operations.js';
import type { Exchange, ObservedClient } from '../http/observedClient.js';
import type { Report } from '../report/report.js';
import { requestArb } from './arbitraries.js';
import {
  type AllowanceWindow,
  allowanceMonth,
  checkAllowanceHeaders,
  checkFilterValues,
  checkPage,
  checkQuote,
  checkUsage,
  validityWindowOf,
} from './invariants.js';
import { type Expectation, expectOutcome, type KeyState, rateLimitedType } from './oracle.js';
import {
  type CredentialKind,
  describeRequest,
  type GeneratedRequest,
  type WireParameter,
  wireQuery,
} from './requestModel.js';

/** An active key and the rules it lives by (from the contract's plan table, or learnt for per-key plans). */
export interface KeyUnderTest {
  readonly key: string;
  readonly plan: string;
  readonly monthlyCalls: number | null;
  readonly maxLimit: number;
  readonly filtersPerCall: number;
  readonly faithFilter: boolean;
  /** What its allowance covers: each calendar month, or its validity (a trial's 30 days, learnt from quotes-usage). */
  readonly allowancePeriod: 'month' | 'validity';
  readonly validityDays: number | null;
}

export interface PropertyKeys {
  /** One active key per plan available. */
  readonly active: readonly KeyUnderTest[];
  /** Active, a few calls short of its allowance: the run crosses the 429 boundary. */
  readonly nearlyExhausted?: KeyUnderTest;
  /** Active, allowance used up. */
  readonly exhausted?: KeyUnderTest;
  readonly revoked?: string;
  readonly expired?: string;
}

export interface PropertyOptions {
  readonly numRuns: number;
  readonly seed: number;
  /** fast-check's replay path, printed with a failure. */
  readonly path?: string;
  /**
   * The counter value (calls this month) no key may pass: a request that would take a key past
   * it is not sent (fast-check counts it as skipped), so a budget holds whatever the estimate said.
   */
  readonly counterCeiling?: ReadonlyMap<string, number>;
}

export interface PropertyOutcome {
  readonly runs: number;
  readonly requests: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly failed: boolean;
}

type Body = Record<string, unknown>;

function asBody(json: unknown): Body {
  return json && typeof json === 'object' ? (json as Body) : {};
}

function credentialHeaders(key: string | undefined, transport: 'header' | 'bearer' | 'both'): Record<string, string> {
  if (key === undefined) return {};
  if (transport === 'header') return { 'X-API-Key': key };
  if (transport === 'bearer') return { Authorization: `Bearer ${key}` };
  return { 'X-API-Key': key, Authorization: `Bearer ${key}` };
}

/** The requests Layer 3 generates for these keys: every plan given, every key state given. */
export function requestsFor(keys: PropertyKeys): fc.Arbitrary<GeneratedRequest> {
  const kinds: Exclude<CredentialKind, 'active'>[] = ['missing', 'unknown'];
  if (keys.active.length >= 2) kinds.push('conflicting');
  if (keys.revoked) kinds.push('revoked');
  if (keys.expired) kinds.push('expired');
  if (keys.exhausted) kinds.push('exhausted');
  if (keys.nearlyExhausted) kinds.push('nearlyExhausted');
  // The keyed API under /v1; the key request (a POST with a body, no key) is Layer 1's and the server's own tests'.
  const operations = contractOperations().filter((operation) => operation.path.startsWith('/v1/'));
  return requestArb(operations, { plans: keys.active.map((key) => key.plan), kinds });
}

/** The active key a request is sent with, whose counter it may move (none for the refused kinds). */
export function countedKeyOf(request: GeneratedRequest, keys: PropertyKeys): KeyUnderTest | undefined {
  const { kind, plan } = request.credential;
  if (kind === 'active') return keys.active.find((candidate) => candidate.plan === plan);
  if (kind === 'nearlyExhausted') return keys.nearlyExhausted;
  if (kind === 'exhausted') return keys.exhausted;
  return undefined;
}

/**
 * Layer 3: generated requests against a live target, each judged against the contract: the
 * status is the one the order of checks gives, error bodies carry the right problem type and
 * name every bad parameter, bodies keep the semantic promises, and the key's counter moves by
 * exactly the calls that count.
 */
export async function runRequestProperties(
  client: ObservedClient,
  keys: PropertyKeys,
  options: PropertyOptions,
  report: Report,
): Promise<PropertyOutcome> {
  const layer = 'Layer 3 properties';
  const unknownKey = `qk_conformance_unknown_${randomBytes(12).toString('hex')}`;
  const used = new Map<string, number>();
  const statuses: Record<string, number> = {};
  let requests = 0;

  const get = async (path: string, headers: Record<string, string>): Promise<Exchange> => {
    requests++;
    return client.get(path, headers);
  };

  const keyed = [
    ...keys.active,
    ...(keys.nearlyExhausted ? [keys.nearlyExhausted] : []),
    ...(keys.exhausted ? [keys.exhausted] : []),
  ];
  // Calls in the allowance's period: the month's, or since issue for a trial key.
  const usageOf = async (key: KeyUnderTest): Promise<{ exchange: Exchange; calls: number | undefined }> => {
    const exchange = await get(operationById('getUsage').path, { 'X-API-Key': key.key });
    const calls = asBody(exchange.json).calls_in_period;
    return { exchange, calls: exchange.response.status === 200 && typeof calls === 'number' ? calls : undefined };
  };
  /** The validity window of each trial-like key, as quotes-usage gives it (its length checked against the plan). */
  const validityWindows = new Map<string, AllowanceWindow>();
  for (const key of keyed) {
    const { exchange, calls } = await usageOf(key);
    const window = key.allowancePeriod === 'validity' ? validityWindowOf(asBody(exchange.json), key) : undefined;
    if (calls === undefined || typeof window === 'string') {
      report.fail(
        layer,
        `usage of the ${key.plan} key`,
        typeof window === 'string'
          ? window
          : `GET quotes-usage answered ${exchange.response.status}: ${exchange.response.body.slice(0, 200)}`,
      );
      return { runs: 0, requests, statuses, failed: true };
    }
    used.set(key.key, calls);
    if (window) validityWindows.set(key.key, window);
  }
  const windowOf = (key: KeyUnderTest, now: Date) => validityWindows.get(key.key) ?? allowanceMonth(now);
  const unlimited = keys.active.find((key) => key.monthlyCalls === null && key.faithFilter && key.filtersPerCall >= 5);

  const arbitrary = requestsFor(keys);

  const keyFor = (request: GeneratedRequest): { key: KeyUnderTest | undefined; headers: Record<string, string> } => {
    const { kind, transport } = request.credential;
    switch (kind) {
      case 'active':
      case 'nearlyExhausted':
      case 'exhausted': {
        const key = countedKeyOf(request, keys);
        return { key, headers: credentialHeaders(key?.key, transport) };
      }
      case 'revoked':
        return { key: undefined, headers: credentialHeaders(keys.revoked, transport) };
      case 'expired':
        return { key: undefined, headers: credentialHeaders(keys.expired, transport) };
      case 'unknown':
        return { key: undefined, headers: credentialHeaders(unknownKey, transport) };
      case 'conflicting':
        return {
          key: undefined,
          headers: { 'X-API-Key': keys.active[0]!.key, Authorization: `Bearer ${keys.active[1]!.key}` },
        };
      case 'missing':
        return { key: undefined, headers: {} };
    }
  };

  /** Whether one more counted call on `key` stays within the budget (`--max-calls-per-key`). */
  const withinBudget = (key: KeyUnderTest) =>
    (used.get(key.key) ?? 0) < (options.counterCeiling?.get(key.key) ?? Number.POSITIVE_INFINITY);
  let overBudget = 0;

  /** A 404 claims nothing matches: the list with the same filters must say total 0. */
  const confirmNoMatch = async (parameters: readonly WireParameter[]): Promise<string[]> => {
    if (!unlimited || !withinBudget(unlimited)) return [];
    const listPath = operationById('listQuotes').path;
    const exchange = await get(
      `${listPath}${wireQuery([...parameters, { name: 'limit', value: '1', wire: 'limit=1' }])}`,
      { 'X-API-Key': unlimited.key },
    );
    if (exchange.response.status === 200) used.set(unlimited.key, (used.get(unlimited.key) ?? 0) + 1);
    const total = asBody(exchange.json).total;
    return exchange.response.status === 200 && total === 0
      ? []
      : [
          `404 no-match, but ${listPath} with the same filters answered ${exchange.response.status} total ${String(total)}`,
        ];
  };

  const judge = async (request: GeneratedRequest): Promise<void> => {
    const operation = operationById(request.operationId);
    const { key, headers } = keyFor(request);
    if (key && operation.countedStatuses.length > 0 && !withinBudget(key)) {
      overBudget++;
      fc.pre(false);
    }
    const before = key ? (used.get(key.key) ?? 0) : 0;
    const state: KeyState | undefined = key ? { ...key, used: before } : undefined;
    const expectation: Expectation = expectOutcome(request, operation, state);
    const now = new Date();
    const exchange = await get(`${operation.path}${wireQuery(request.parameters)}`, headers);
    const { status } = exchange.response;
    statuses[status] = (statuses[status] ?? 0) + 1;
    const body = asBody(exchange.json);
    const problems: string[] = exchange.issues.map((issue) => `schema (${issue.where}): ${issue.message}`);
    let rateLimitedWait = 0;

    const rateLimited = status === 429 && body.type === rateLimitedType;
    if (status >= 500) problems.push(`server error ${status}`);
    if (rateLimited) {
      if (!expectation.mayBeRateLimited) problems.push(`429 rate-limited, where ${expectation.reason} cannot be`);
      const retryAfter = exchange.response.headers['retry-after'] ?? '';
      if (!/^[1-9]\d*$/.test(retryAfter) || Number(retryAfter) > 60)
        problems.push(`429 rate-limited with Retry-After ${retryAfter}, expected a few whole seconds`);
      else rateLimitedWait = Number(retryAfter) * 1000;
    } else if (!expectation.statuses.includes(status)) {
      problems.push(
        `expected ${expectation.statuses.join(' or ')} (${expectation.reason}), got ${status} ${String(body.type ?? '')}: ${String(body.detail ?? '')}`,
      );
    } else if (status >= 400) {
      const type = expectation.problemTypes[status];
      if (type && body.type !== type)
        problems.push(`problem type ${String(body.type)}, expected ${type} (${expectation.reason})`);
      if (status === 400) {
        const named = Array.isArray(body.errors) ? (body.errors as Body[]).map((error) => String(error.parameter)) : [];
        const missing = expectation.badParameters.filter((name) => !named.includes(name));
        if (missing.length > 0)
          problems.push(`errors does not name ${missing.join(', ')} (named: ${named.join(', ') || 'none'})`);
        const sent = new Set(request.parameters.map((parameter) => parameter.name));
        const phantom = named.filter((name) => !sent.has(name));
        if (phantom.length > 0) problems.push(`errors names ${phantom.join(', ')}, which the request did not send`);
      }
    }

    const counted = !rateLimited && expectation.countedAt.includes(status);
    const after = before + (counted ? 1 : 0);
    if (key && (counted || (status === 429 && !rateLimited))) {
      problems.push(
        ...checkAllowanceHeaders(
          exchange.response.headers,
          key.monthlyCalls,
          after,
          now,
          status,
          windowOf(key, now),
        ).map((problem) => `headers: ${problem}`),
      );
    }
    if (status === 200) {
      if (request.operationId === 'getRandomQuote') problems.push(...checkQuote(body, expectation.filters, 'quote'));
      if (request.operationId === 'listQuotes' && expectation.page)
        problems.push(...checkPage(body, expectation.page, expectation.filters));
      if (request.operationId === 'listFilterValues') problems.push(...checkFilterValues(body));
      if (request.operationId === 'getUsage' && key)
        problems.push(
          ...checkUsage(body, { plan: key.plan, limit: key.monthlyCalls, used: before }, windowOf(key, now), now),
        );
    }
    if (key) {
      const { calls } = await usageOf(key);
      if (calls !== after)
        problems.push(
          `the usage counter reads ${String(calls)}; it was ${before} and this call ${counted ? 'counts' : 'does not count'} (${status})`,
        );
      // Resynchronise, so one miscount is reported once rather than in every later run.
      if (calls !== undefined) used.set(key.key, calls);
    }
    // After the counter check: the cross-check is itself a counted call, possibly on the same key.
    if (status === 404 && request.operationId === 'getRandomQuote' && expectation.statuses.includes(404)) {
      problems.push(...(await confirmNoMatch(request.parameters)));
    }
    // Waiting out a rate-limited answer keeps the next runs judging the operations themselves.
    if (rateLimitedWait > 0) await new Promise((resolve) => setTimeout(resolve, rateLimitedWait));
    if (problems.length > 0) {
      throw new Error(
        `${describeRequest(request, operation.path)} -> ${status}\n  sent: ${exchange.request}\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
      );
    }
  };

  const property = fc.asyncProperty(arbitrary, judge);
  const started = performance.now();
  const details = await fc.check(property, { numRuns: options.numRuns, seed: options.seed, path: options.path });
  const name = `${details.numRuns} generated requests pass (seed ${details.seed}, numRuns ${options.numRuns})`;
  const replay = `replay: CONFORMANCE_SEED=${details.seed} CONFORMANCE_RUNS=${options.numRuns}${details.counterexamplePath ? ` CONFORMANCE_PATH=${details.counterexamplePath}` : ''}`;
  if (details.failed) {
    const error =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    report.fail(
      layer,
      name,
      `failed after ${details.numRuns} runs (shrunk ${details.numShrinks} times)\n${error}\n${replay}`,
      performance.now() - started,
    );
  } else {
    report.pass(layer, name, undefined, performance.now() - started);
  }
  const distribution = Object.entries(statuses)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  report.note(
    `Layer 3: seed ${details.seed}, numRuns ${options.numRuns}, ${requests} HTTP requests; statuses of generated requests: ${distribution}`,
  );
  report.note(`Layer 3: ${replay}`);
  if (overBudget > 0)
    report.note(`Layer 3: ${overBudget} generated requests not sent: their key had spent its --max-calls-per-key`);
  return { runs: details.numRuns, requests, statuses, failed: details.failed };
}
