import { loadContract, type PlanRules, type QuotePage, rules } from '@quotes/contract';
import {
  applyPageLimits,
  checkWithoutData,
  crossOrigin,
  KeyFairness,
  overCallsAtOnce,
  overCallsPerSecond,
  describeFilters,
  noMatch,
  loadContractRouting,
  Problem,
  requestIdFor,
} from '@quotes/server/data-free-checks';
import type { RequestHandler, Response } from 'express';
import { CallLedger } from './callLedger.js';
import { createExampleAnswers, type ExampleAnswer } from './exampleAnswers.js';

/** The plan the mock takes every key to be on unless told otherwise: the demo key's. */
export const defaultMockPlan = 'professional';

/** The contract's plan of that name, else an Error naming the plans there are. */
export function mockPlan(id: string): PlanRules {
  const plan = rules.planById.get(id);
  if (!plan) throw new Error(`unknown plan "${id}"; the plans are ${rules.plans.map((rule) => rule.id).join(', ')}`);
  return plan;
}

/** The allowance headers, lower-cased: the server's, computed, replace the contract's examples. */
export const allowanceHeaderNames = [
  'ratelimit-policy',
  'ratelimit',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
];

/** For an answer Prism gives (Prefer): the allowance headers of the call, counted, when its status counts. */
export function liveAllowance(response: object, status: number): Record<string, string> | undefined {
  const count = (response as { locals?: Record<string, unknown> }).locals?.countCall;
  return typeof count === 'function'
    ? (count as (status: number) => Record<string, string> | undefined)(status)
    : undefined;
}

/** The request id the front gave this response (the problem's `instance`). */
export function requestIdOf(response: object): string | undefined {
  const id = (response as { locals?: Record<string, unknown> }).locals?.requestId;
  return typeof id === 'string' ? id : undefined;
}

/** Every answer carries a request id, as the server's: the caller's X-Request-Id when sane, else a UUID. */
export const requestIds: RequestHandler = (request, response, next) => {
  const id = requestIdFor(request.headers);
  response.locals.requestId = id;
  response.setHeader('X-Request-Id', id);
  next();
};

/**
 * The server's headers on every answer under /v1 (after CORS preflights): never stored by a
 * shared cache, never sniffed into another type. Prism's own answers lack them; an answer that
 * comes back from Prism with its own Cache-Control keeps it, as the server's operations do.
 */
const apiAnswerHeaders: RequestHandler = (request, response, next) => {
  if (request.path === '/v1' || request.path.startsWith('/v1/')) {
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Cache-Control', 'no-store');
  }
  next();
};

/** `Prefer: code=404` alone (no named example): quotes-random's no-match. */
function asksNoMatch(prefer: string | string[]): boolean {
  return typeof prefer === 'string' && /^\s*code\s*=\s*404\s*$/.test(prefer);
}

/** `Prefer: example=empty`: what the server answers a filter no quote matches. */
function asksEmpty(prefer: string | string[]): boolean {
  return typeof prefer === 'string' && /^\s*example\s*=\s*empty\s*$/.test(prefer);
}

/** The preferences of a `Prefer` header (`code=429, example=rate-limited`), names and values lower-cased. */
function preferences(prefer: string | string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of (typeof prefer === 'string' ? prefer : prefer.join(',')).split(/[,;]/)) {
    const [name, value = ''] = part.split('=', 2).map((text) => text.trim().toLowerCase());
    if (name) found.set(name, value);
  }
  return found;
}

/**
 * Which of the server's 429s `Prefer` asks for: the allowance used up (`code=429` alone), the
 * plan's calls per second (`example=rate-limited`), or too many calls at once
 * (`example=calls-at-once`), each with or without `code=429`. The contract documents one 429
 * example; the others are the server's own problems, so the mock makes them itself.
 */
function asks429(prefer: string | string[]): 'allowance-exhausted' | 'rate-limited' | 'calls-at-once' | undefined {
  const asked = preferences(prefer);
  const code = asked.get('code');
  if (code !== undefined && code !== '429') return undefined;
  const example = asked.get('example')?.replace(/[-_]/g, '');
  if (example === undefined) return code === '429' && asked.size === 1 ? 'allowance-exhausted' : undefined;
  if (example === 'ratelimited') return 'rate-limited';
  if (example === 'callsatonce') return 'calls-at-once';
  return undefined;
}

function send(response: Response, answer: ExampleAnswer, contentType: string): void {
  response.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
  if (answer.body === undefined) {
    response.end();
    return;
  }
  response.setHeader('Content-Type', contentType);
  response.setHeader('Content-Length', Buffer.byteLength(answer.body));
  response.end(answer.body);
}

/** Whether the operation's calls count against the allowance (quotes-usage's do not: it is never refused for it). */
function counts(operationId: string): boolean {
  return (rules.countedStatuses.get(operationId) ?? []).length > 0;
}

/**
 * The operations whose contract declares a 429: the three counted ones. quotes-usage declares
 * none (it is never held to calls per second nor refused for a used-up allowance), so a `Prefer`
 * for a 429 there is answered as the server answers: its 200.
 */
function operationsAnswering429(): Set<string> {
  const found = new Set<string>();
  for (const item of Object.values(loadContract().paths))
    for (const operation of Object.values(item) as { operationId?: string; responses?: Record<string, unknown> }[])
      if (operation.operationId && operation.responses?.['429'] !== undefined) found.add(operation.operationId);
  return found;
}

/** quotes-filter's page with no quote, at the asked (and capped) `limit` and `offset`. */
function emptyPage(query: Record<string, unknown>, plan: PlanRules, headers: Record<string, string>): ExampleAnswer {
  const page = applyPageLimits(query as Parameters<typeof applyPageLimits>[0], plan.maxLimit);
  const body: QuotePage = { quotes: [], total: 0, limit: page.limit, offset: page.offset, has_more: false };
  return { status: 200, body: JSON.stringify(body), headers };
}

export interface ServerParityOptions {
  /** Answer the operations from the mock's example quotes (default true); false leaves them to Prism. */
  examples?: boolean;
  /** The plan every key is taken to be on (default `defaultMockPlan`). */
  plan?: string;
}

/**
 * What the server refuses without looking at data (an unknown path or method, no key or two
 * different keys, a bad query, a call beyond the plan), the mock refuses the same way: the
 * server's own checks, bundled in, give the same status, problem `type`, `instance` and `Allow`.
 * The same CORS answers too, except that the mock has no keys, so it serves every origin. The
 * operations are answered from the mock's example quotes (exampleAnswers.ts); a request with
 * `Prefer` goes on to Prism, which answers it from the contract's examples.
 */
export async function serverParity(options: ServerParityOptions = {}): Promise<RequestHandler[]> {
  const routing = await loadContractRouting();
  const plan = mockPlan(options.plan ?? defaultMockPlan);
  const clock = () => new Date();
  const ledger = new CallLedger(plan, clock);
  const answerFromExamples = options.examples === false ? undefined : createExampleAnswers({ plan, ledger, clock });
  // The server's step 5, with the server's own rule: the plan's calls per second and calls at once.
  const fairness = new KeyFairness();
  // The contract's operations outside /v1 (the key request) have no key to check: Prism answers them.
  const outsideApi = new Set(Object.keys(loadContract().paths).filter((path) => !path.startsWith('/v1/')));
  const answering429 = operationsAnswering429();
  const answers: RequestHandler = async (request, response, next) => {
    if (outsideApi.has(request.path)) {
      next();
      return;
    }
    try {
      const { route, key, query, filter } = checkWithoutData(
        { method: request.method, url: request.originalUrl ?? request.url, headers: request.headers },
        routing,
        plan,
      );
      const asked = request.headers.prefer;
      // A 429 asked of an operation that never answers one: the answer it does give.
      const prefer =
        asked !== undefined && !answering429.has(route.operationId) && asks429(asked) !== undefined ? undefined : asked;
      // An OPTIONS that is no CORS preflight is answered by Prism.
      if (!answerFromExamples || request.method === 'OPTIONS') {
        next();
        return;
      }
      const asked429 = prefer !== undefined && answering429.has(route.operationId) ? asks429(prefer) : undefined;
      const exhausted = asked429 === 'allowance-exhausted' ? ledger.exhausted() : undefined;
      if (exhausted) throw exhausted;
      if (asked429 === 'rate-limited' && plan.requestsPerSecond !== null) {
        // An empty bucket refills one call in 1/rate s: the server's Retry-After is then 1.
        throw overCallsPerSecond(plan.requestsPerSecond, 1);
      }
      // On a plan without a per-second limit, calls at once are the only rate-limited answer there is.
      if (asked429 === 'rate-limited' || asked429 === 'calls-at-once') throw overCallsAtOnce('waited-too-long');
      const empty = prefer !== undefined && asksEmpty(prefer);
      const noMatchAsked =
        prefer !== undefined && route.operationId === 'getRandomQuote' && (asksNoMatch(prefer) || empty);
      if (prefer !== undefined && !noMatchAsked && !(empty && route.operationId === 'listQuotes')) {
        // Prism picks the answer; a status that counts is counted (a 429 keeps the example, which agrees with its text).
        const counted = rules.countedStatuses.get(route.operationId) ?? [];
        response.locals.countCall = (status: number) => {
          if (!counted.includes(status)) return undefined;
          try {
            return ledger.count(key);
          } catch {
            return undefined;
          }
        };
        next();
        return;
      }
      const answer = () => {
        if (noMatchAsked) {
          // The documented way to see no-match: the server's 404, naming the filters given, counted.
          const problem = noMatch(describeFilters(query as Parameters<typeof describeFilters>[0]));
          Object.assign(problem.headers, ledger.count(key));
          throw problem;
        }
        // The server's answer to a filter no quote matches: a 200 with an empty page, counted.
        if (empty) return emptyPage(query, plan, ledger.count(key));
        return answerFromExamples({ operationId: route.operationId, key, query, filter, headers: request.headers });
      };
      // What the server serves of a counted operation passes its step 5 first, as there.
      const found = counts(route.operationId)
        ? await fairness.run(key, plan.requestsPerSecond, async () => answer())
        : answer();
      if (found) send(response, found, 'application/json');
      else next();
    } catch (error) {
      if (!(error instanceof Problem)) {
        next(error);
        return;
      }
      const problem = {
        status: error.status,
        body: JSON.stringify(error.body(requestIdOf(response))),
        headers: error.headers,
      };
      send(response, problem, 'application/problem+json');
    }
  };
  return [crossOrigin(routing), apiAnswerHeaders, answers];
}
