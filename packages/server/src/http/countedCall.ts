import type { ApiKeyRecord } from '../data/apiKeys.js';
import { allowanceHeaders, exhaustedHeaders } from '../domain/allowanceHeaders.js';
import { calendarMonthOf, isoSeconds } from '../domain/calendarMonth.js';
import { effectiveLimits } from '../domain/plans.js';
import { Problem } from '../problems.js';
import type { ServiceRuntime } from '../serviceRuntime.js';
import type { ApiResponse } from './apiResponse.js';

/**
 * Step 5 of the order of checks and the counting rules: the call is counted (atomically, against
 * the allowance) before the operation runs; its answer, 2xx or a counted 404, carries the
 * allowance headers; a 5xx gives the call back.
 */
export async function countedCall(
  runtime: ServiceRuntime,
  key: ApiKeyRecord,
  operation: () => Promise<ApiResponse>,
): Promise<ApiResponse> {
  const now = runtime.clock();
  const month = calendarMonthOf(now);
  const limit = effectiveLimits(key.plan, key.overrides).monthlyCalls;
  const outcome = await runtime.counter.acquire(key.id, month.key, limit);
  if (!outcome.granted) {
    throw new Problem(
      'allowance-exhausted',
      `All ${limit ?? 0} calls of this month are used; the allowance resets at ${isoSeconds(month.next)}.`,
      { headers: exhaustedHeaders(limit ?? 0, now) },
    );
  }
  const headers = allowanceHeaders({ limit, used: outcome.used }, now);
  try {
    const answer = await operation();
    return { ...answer, headers: { ...answer.headers, ...headers } };
  } catch (error) {
    if (error instanceof Problem && error.status < 500) {
      Object.assign(error.headers, headers);
      throw error;
    }
    void runtime.counter.giveBack(key.id, month.key);
    throw error;
  }
}
