/**
 * The monthly allowance as the server reported it on one response (from `X-RateLimit-*`).
 * A field is absent when its header was not sent: plans without a monthly limit send only
 * the reset, so `limit`/`remaining` absent means "unlimited", never zero.
 */
export interface RateLimit {
  /** Calls allowed this month. */
  limit?: number;
  /** Calls left this month. */
  remaining?: number;
  /** When the allowance resets (00:00 UTC on the 1st). */
  resetsAt?: Date;
}

function headerInt(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)?.trim();
  // Number('') is 0 and Number('1e3') is 1000: accept only plain digits.
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** The allowance headers of a response, or undefined when it carries none (e.g. quotes-usage). */
export function parseRateLimit(headers: Headers): RateLimit | undefined {
  const limit = headerInt(headers, 'X-RateLimit-Limit');
  const remaining = headerInt(headers, 'X-RateLimit-Remaining');
  const reset = headerInt(headers, 'X-RateLimit-Reset');
  if (limit === undefined && remaining === undefined && reset === undefined) return undefined;
  const rateLimit: RateLimit = {};
  if (limit !== undefined) rateLimit.limit = limit;
  if (remaining !== undefined) rateLimit.remaining = remaining;
  if (reset !== undefined) rateLimit.resetsAt = new Date(reset * 1000);
  return rateLimit;
}

/**
 * Retry-After in seconds. The contract sends delta-seconds, but RFC 9110 also allows an
 * HTTP-date, which a proxy in front of the service may use.
 */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const value = headers.get('Retry-After')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
