/** Opt-in retries of 503 answers and network failures; 4xx answers are never retried. */
export interface RetryOptions {
  /** Retries after the first try. Default 2. */
  maxRetries?: number;
  /** First backoff; it doubles on each retry, with jitter. Default 500 ms. */
  baseDelayMs?: number;
  /**
   * The longest wait before a retry. A 503 whose `Retry-After` asks for longer is not retried
   * but surfaced, so a caller is never held for minutes. Default 20,000 ms.
   */
  maxDelayMs?: number;
}

export interface RetryPolicy {
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const noRetries: RetryPolicy = Object.freeze({ maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 });

export function retryPolicy(option: boolean | RetryOptions | undefined): RetryPolicy {
  if (option === undefined || option === false) return noRetries;
  const given = option === true ? {} : option;
  const policy = {
    maxRetries: given.maxRetries ?? 2,
    baseDelayMs: given.baseDelayMs ?? 500,
    maxDelayMs: given.maxDelayMs ?? 20_000,
  };
  for (const [name, value] of Object.entries(policy)) {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`retry.${name} must be a non-negative number`);
  }
  return Object.freeze(policy);
}

/**
 * Exponential backoff with "equal jitter": half the step is fixed, half random, so clients that
 * failed together do not come back together, and no retry comes back immediately.
 */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(step / 2 + (random() * step) / 2);
}
