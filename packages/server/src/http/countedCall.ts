import { rules } from '@quotes/contract';
import { allowanceHeaders, exhaustedHeaders } from '../domain/allowanceHeaders.js';
import { calendarMonthOf, isoSeconds } from '../domain/calendarMonth.js';
import { Problem } from '../problems.js';
import type { ServiceRuntime } from '../serviceRuntime.js';
import type { ApiCall } from './apiCall.js';

/**
 * Step 5 of the order of checks and the counting rules, as the contract's `x-counted-statuses`
 * give them per operation: a counted operation's call is counted (atomically, against the
 * allowance) before it runs; an answer at a counted status (a 2xx, a 304, a 404 no-match) keeps
 * the count and carries the allowance headers; any other answer gives the call back.
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
  const outcome = await runtime.counter.acquire(key.id, month.key, limit);
  if (!outcome.granted) {
    throw new Problem(
      'allowance-exhausted',
      `All ${limit ?? 0} calls of this month are used; the allowance resets at ${isoSeconds(month.next)}.`,
      { headers: exhaustedHeaders(limit ?? 0, now) },
    );
  }
  const headers = allowanceHeaders({ limit, used: outcome.used }, now);
  let answer: Answer;
  try {
    answer = await operation();
  } catch (error) {
    if (error instanceof Problem && counted.includes(error.status)) {
      Object.assign(error.headers, headers);
    } else {
      void runtime.counter.giveBack(key.id, month.key);
    }
    throw error;
  }
  if (!counted.includes(answer.status)) {
    void runtime.counter.giveBack(key.id, month.key);
    return answer;
  }
  return { ...answer, headers: { ...answer.headers, ...headers } };
}
