import { describeFailure, QuotesNetworkError } from './networkError.js';
import { parseRetryAfter } from './rateLimit.js';
import { backoffDelay, type RetryPolicy } from './retryPolicy.js';

export interface ResilientFetchOptions {
  fetch: typeof globalThis.fetch;
  /** Per try, covering the answer's headers and body; 0 for none. */
  timeoutMs: number;
  retry: RetryPolicy;
}

/** Waits `ms`, or rejects with the signal's reason as soon as the caller aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The fetch the generated client calls: each try gets its own deadline, and with retries on, a
 * 503, a 429 rate-limited or a failed connection is tried again after a backoff (or the answer's
 * `Retry-After`). Every
 * operation of the contract is a GET, so a retry can never do something twice; it can count a
 * call twice when the first answer was lost on the way back.
 */
export function resilientFetch(options: ResilientFetchOptions): typeof globalThis.fetch {
  // Called as a plain function: a browser's fetch throws "Illegal invocation" when called as a
  // method of another object.
  const send = options.fetch;
  const { timeoutMs, retry } = options;
  return async (input, init) => {
    const original = new Request(input, init);
    const caller = original.signal;
    for (let attempt = 0; ; attempt++) {
      const deadline = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
      const signal = deadline ? AbortSignal.any([caller, deadline]) : caller;
      let response: Response;
      try {
        response = await send(new Request(original.clone(), { signal }));
      } catch (error) {
        // The caller's own abort is theirs: neither retried nor renamed.
        if (caller.aborted) throw error;
        const reason = deadline?.aborted ? 'timeout' : 'network';
        if (attempt < retry.maxRetries) {
          await pause(backoffDelay(retry, attempt), caller);
          continue;
        }
        const what = `${original.method} ${original.url}`;
        throw new QuotesNetworkError(
          reason,
          reason === 'timeout'
            ? `${what}: no answer within ${timeoutMs} ms`
            : `${what} failed: ${describeFailure(error)}`,
          attempt + 1,
          error,
        );
      }
      // A 429 is retried only when its Retry-After is short: rate-limited asks for a second or
      // two, allowance-exhausted for the rest of the month (which maxDelayMs never reaches).
      const retryable = response.status === 503 || (response.status === 429 && response.headers.has('Retry-After'));
      if (retryable && attempt < retry.maxRetries) {
        const retryAfter = parseRetryAfter(response.headers);
        const wait = retryAfter !== undefined ? retryAfter * 1000 : backoffDelay(retry, attempt);
        if (wait <= retry.maxDelayMs) {
          await response.body?.cancel();
          await pause(wait, caller);
          continue;
        }
      }
      return response;
    }
  };
}
