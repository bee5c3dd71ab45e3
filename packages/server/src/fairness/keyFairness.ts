import { Problem } from '@quotes/service-base/problems';
import { type GateRefusal, InFlightGate } from './inFlightGate.js';
import { TokenBucket } from './tokenBucket.js';

/** The contract's calls of one key at once per server, and how long a 9th waits for a place. */
export const defaultMaxInFlight = 8;
export const defaultMaxWaitMs = 3000;

export interface FairnessOptions {
  /** Calls of one key running at once (default 8). */
  readonly maxInFlight?: number;
  /** Calls of one key waiting for a place (default 256). */
  readonly maxQueued?: number;
  /** How long a call waits for a place at most (default 3000 ms). */
  readonly maxWaitMs?: number;
  /** Milliseconds now (default Date.now). */
  readonly now?: () => number;
  /** This server's share of a key's burst rate, noting the call (see KeyDemand); default the whole rate. */
  readonly share?: (keyId: string, requestsPerSecond: number) => number;
}

/**
 * Step 5 of the contract's order of checks, per key: the plan's burst limit and a bound on calls
 * running at once in this process. Beyond either: 429 rate-limited with Retry-After, before the
 * allowance is touched. The burst limit is shared by the servers the key's calls reach: each holds
 * a token bucket of its share (KeyDemand) a second and as many at once (at least one), so a key
 * gets the plan's rate in all whether its calls are spread or land on one server, without a
 * database write per call.
 */
export class KeyFairness {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly gates = new Map<string, InFlightGate>();
  private readonly maxInFlight: number;
  private readonly maxQueued: number;
  private readonly maxWaitMs: number;
  private readonly now: () => number;
  private readonly share: (keyId: string, requestsPerSecond: number) => number;
  private sweptAt: number;
  /** The latest call's key, and the latest call of any other key: whether a key is served alone. */
  private latest = { keyId: '', at: Number.NEGATIVE_INFINITY };
  private previous = { keyId: '', at: Number.NEGATIVE_INFINITY };

  constructor(options: FairnessOptions = {}) {
    this.maxInFlight = options.maxInFlight ?? defaultMaxInFlight;
    this.maxQueued = options.maxQueued ?? 256;
    this.maxWaitMs = options.maxWaitMs ?? defaultMaxWaitMs;
    this.now = options.now ?? Date.now;
    this.share = options.share ?? ((_keyId, requestsPerSecond) => requestsPerSecond);
    this.sweptAt = this.now();
  }

  /** Runs `work` once the key is within both limits; throws a rate-limited Problem otherwise. */
  async run<T>(keyId: string, requestsPerSecond: number | null, work: () => Promise<T>): Promise<T> {
    const now = this.now();
    this.sweep(now);
    this.noteCall(keyId, now);
    if (requestsPerSecond !== null) {
      const share = this.share(keyId, requestsPerSecond);
      const capacity = Math.max(1, share);
      let bucket = this.buckets.get(keyId);
      if (!bucket) {
        bucket = new TokenBucket(share, capacity, now);
        this.buckets.set(keyId, bucket);
      } else if (bucket.perSecond !== share) {
        bucket.retune(share, capacity, now);
      }
      const retryAfter = bucket.take(now);
      if (retryAfter > 0) throw overCallsPerSecond(requestsPerSecond, retryAfter);
    }
    let gate = this.gates.get(keyId);
    if (!gate) {
      gate = new InFlightGate(this.maxInFlight, this.maxQueued, this.maxWaitMs);
      this.gates.set(keyId, gate);
    }
    const entered = await gate.enter();
    if (typeof entered !== 'function') throw overCallsAtOnce(entered, this.maxInFlight, this.maxWaitMs);
    try {
      return await work();
    } finally {
      entered();
    }
  }

  /** Whether a call of a key other than this one arrived within the last second. */
  othersServed(keyId: string): boolean {
    const other = this.latest.keyId !== keyId ? this.latest : this.previous;
    return other.keyId !== '' && this.now() - other.at < 1000;
  }

  private noteCall(keyId: string, now: number): void {
    if (this.latest.keyId === keyId) {
      this.latest.at = now;
      return;
    }
    this.previous = this.latest;
    this.latest = { keyId, at: now };
  }

  /** Keys tracked now (for tests and the sweep's bound). */
  get trackedKeys(): number {
    return new Set([...this.buckets.keys(), ...this.gates.keys()]).size;
  }

  /** Forgets full buckets and idle gates at most once a second, so memory follows active keys. */
  private sweep(now: number): void {
    if (now - this.sweptAt < 1000) return;
    this.sweptAt = now;
    for (const [keyId, bucket] of this.buckets) if (bucket.fullAt(now)) this.buckets.delete(keyId);
    for (const [keyId, gate] of this.gates) if (gate.idle) this.gates.delete(keyId);
  }
}

/** Step 5's 429 for a key beyond its plan's burst limit: a call may come again in `retryAfter` s. */
export function overCallsPerSecond(requestsPerSecond: number, retryAfter: number): Problem {
  return rateLimited(
    `This key's plan allows ${requestsPerSecond} calls per second; retry in ${retryAfter} s.`,
    retryAfter,
  );
}

/** Step 5's 429 for a key with more calls at once than a server runs for it, and why its call was not let in. */
export function overCallsAtOnce(
  refusal: GateRefusal,
  maxInFlight = defaultMaxInFlight,
  maxWaitMs = defaultMaxWaitMs,
): Problem {
  return rateLimited(
    `More than ${maxInFlight} calls of this key at once (${refusal === 'queue-full' ? 'the queue is full' : `none finished within ${maxWaitMs} ms`}); retry in 1 s.`,
    1,
  );
}

/** The 429 `rate-limited` of the contract's step 5, with Retry-After in whole seconds. */
export function rateLimited(detail: string, retryAfterSeconds: number): Problem {
  return new Problem('rate-limited', detail, { headers: { 'Retry-After': String(retryAfterSeconds) } });
}
