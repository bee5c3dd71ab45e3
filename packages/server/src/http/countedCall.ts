import { rules } from '@quotes/contract';
import {
  type AllowanceWindow,
  allowanceHeaders,
  allowanceWindow,
  exhaustedHeaders,
} from '../domain/allowanceHeaders.js';
import { allowanceUsedSentence, calendarMonthOf, type PlanRules } from '@quotes/accounts/rules';
import { Problem } from '@quotes/service-base/problems';
import type { ServiceRuntime } from '../serviceRuntime.js';
import type { CallSlot } from '../data/counting/monthlyCounter.js';
import type { ApiCall } from './apiCall.js';

/** Whether an answer at `status` keeps the call counted (the contract's `x-counted-statuses`). */
export function isCountedAnswer(operationId: string, status: number): boolean {
  return (rules.countedStatuses.get(operationId) ?? []).includes(status);
}

/**
 * Step 6 of the order of checks and the counting rules, as the contract's `x-counted-statuses`
 * give them per operation: a counted operation's call is admitted within the allowance while it
 * runs (its key's lease, or no lease for an unlimited key), and a call refused is answered 429
 * whatever the operation found; an answer at a counted status (a 2xx, a 304, a 404 no-match) is
 * counted, when answered, and carries the allowance headers; any other answer counts nothing.
 */
export async function countedCall<
  Answer extends { readonly status: number; readonly headers?: Record<string, string> },
>(
  runtime: ServiceRuntime,
  call: ApiCall,
  operation: () => Promise<Answer>,
): Promise<Answer & { readonly counted?: CallSlot }> {
  const counted = rules.countedStatuses.get(call.operationId) ?? [];
  if (counted.length === 0) return operation();
  const { key, limits } = call.caller;
  const now = runtime.clock();
  const month = calendarMonthOf(now);
  const window = allowanceWindow(key.plan, key, now);
  // The counter counts per month; a period reaching back before this month (a trial across the
  // 1st) has this month's cap lowered by what its earlier months spent.
  const earlierOrRead = runtime.earlierCalls.of(key.id, window, now);
  const earlier = typeof earlierOrRead === 'number' ? earlierOrRead : await earlierOrRead;
  const allowance = limits.monthlyCalls;
  const limit = allowance === null ? null : Math.max(0, allowance - earlier);
  const admitting = runtime.counter.acquire(key.id, month.key, limit);
  // The operation only reads, so it runs while a call waits for its lease, not after: the answer
  // waits for the slower of two round trips instead of their sum. Not for a key whose allowance
  // was found used up: its calls are refused, and must not cost a read each.
  const early =
    admitting instanceof Promise && runtime.counter.mayGrant(key.id, month.key, limit)
      ? settled(operation())
      : undefined;
  const outcome = admitting instanceof Promise ? await admitting : admitting;
  if (!outcome.granted) throw allowanceExhausted(key.plan, allowance ?? 0, window, now);
  const { slot } = outcome;
  let answer: Answer;
  try {
    answer = early ? unwrap(await early) : await operation();
  } catch (error) {
    if (error instanceof Problem && isCountedAnswer(call.operationId, error.status)) {
      Object.assign(error.headers, allowanceHeaders({ limit: allowance, used: earlier + slot.served() }, window, now));
      error.counted = slot;
    } else {
      slot.release();
    }
    throw error;
  }
  if (!isCountedAnswer(call.operationId, answer.status)) {
    slot.release();
    return answer;
  }
  const used = earlier + slot.served();
  runtime.crossings.counted(used, allowance);
  return {
    ...answer,
    headers: {
      ...answer.headers,
      ...allowanceHeaders({ limit: allowance, used }, window, now),
    },
    counted: slot,
  };
}

/** The 429 of a call beyond the period's allowance, saying when the period resets or ends. */
export function allowanceExhausted(plan: PlanRules, limit: number, window: AllowanceWindow, now: Date): Problem {
  return new Problem('allowance-exhausted', allowanceUsedSentence(plan, limit, window), {
    headers: exhaustedHeaders(limit, window, now),
  });
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
