import { rules } from '@quotes/contract';
import { allowanceHeaders, exhaustedHeaders } from '../domain/allowanceHeaders.js';
import { calendarMonthOf, isoSeconds } from '../domain/calendarMonth.js';
import { Problem } from '../problems.js';
import type { ServiceRuntime } from '../serviceRuntime.js';
import type { ApiCall } from './apiCall.js';

/** Whether an answer at `status` keeps the call counted (the contract's `x-counted-statuses`). */
export function isCountedAnswer(operationId: string, status: number): boolean {
  return (rules.countedStatuses.get(operationId) ?? []).includes(status);
}

/**
 * Step 5 of the order of checks and the counting rules, as the contract's `x-counted-statuses`
 * give them per operation: a counted operation's call is counted (atomically, against the
 * allowance) while it runs, and a call refused is answered 429 whatever the operation found; an
 * answer at a counted status (a 2xx, a 304, a 404 no-match) keeps the count and carries the
 * allowance headers; any other answer gives the call back.
 */
export async function countedCall<
  Answer extends { readonly status: number; readonly headers?: Record<string, string> },
>(runtime: ServiceRuntime, call: ApiCall, operation: () => Promise<Answer>): Promise<Answer> {
  const counted = rules.countedStatuses.get(call.operationId) ?? [];
  if (counted.length === 0) return operation();
  const { key, limits } = call.caller;
  const now = runtime.clock();
  const month = calendarMonthOf(now);
  const limit = limits.monthlyCalls;
  const granting = runtime.counter.acquire(key.id, month.key, limit);
  // The operation only reads, so it runs while the call is being counted, not after: the
  // answer waits for the slower of two round trips instead of their sum. Not for a key whose
  // allowance was found used up: its calls are refused, and must not cost a read each.
  const early = runtime.counter.mayGrant(key.id, month.key, limit) ? settled(operation()) : undefined;
  const outcome = await granting;
  if (!outcome.granted) throw allowanceExhausted(limit ?? 0, now);
  const headers = allowanceHeaders({ limit, used: outcome.used }, now);
  let answer: Answer;
  try {
    answer = unwrap(await (early ?? settled(operation())));
  } catch (error) {
    if (error instanceof Problem && isCountedAnswer(call.operationId, error.status)) {
      Object.assign(error.headers, headers);
    } else {
      void runtime.counter.giveBack(key.id, month.key);
    }
    throw error;
  }
  if (!isCountedAnswer(call.operationId, answer.status)) {
    void runtime.counter.giveBack(key.id, month.key);
    return answer;
  }
  return { ...answer, headers: { ...answer.headers, ...headers } };
}

/** The 429 of a call beyond the month's allowance, saying when it resets. */
export function allowanceExhausted(limit: number, now: Date): Problem {
  return new Problem(
    'allowance-exhausted',
    `All ${limit} calls of this month are used; the allowance resets at ${isoSeconds(calendarMonthOf(now).next)}.`,
    { headers: exhaustedHeaders(limit, now) },
  );
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Never rejects, so an operation started early cannot go unhandled when counting fails first. */
function settled<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

function unwrap<T>(result: Settled<T>): T {
  if (result.ok) return result.value;
  throw result.error;
}
