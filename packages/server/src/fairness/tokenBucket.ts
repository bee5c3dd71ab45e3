/**
 * A token bucket: holds up to `capacity` tokens, refilled at `perSecond` tokens a second; a call
 * takes one. Time is passed in (milliseconds), so it is tested without waiting.
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    public perSecond: number,
    public capacity: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.updatedAt = now;
  }

  /** Takes a token: 0 when one was there, else the whole seconds (at least 1) until one is. */
  take(now: number): number {
    this.refill(now);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / this.perSecond));
  }

  /**
   * A new rate and capacity from `now` on, keeping the tokens it has (at most the new capacity):
   * a change of rate never refills the bucket.
   */
  retune(perSecond: number, capacity: number, now: number): void {
    this.refill(now);
    this.perSecond = perSecond;
    this.capacity = capacity;
    this.tokens = Math.min(this.tokens, capacity);
  }

  /** Full again (and so no different from a new bucket) at this time. */
  fullAt(now: number): boolean {
    this.refill(now);
    return this.tokens >= this.capacity;
  }

  private refill(now: number): void {
    const elapsed = Math.max(0, now - this.updatedAt) / 1000;
    this.tokens = Math.min(this.capacity, this.tokens + elapsed * this.perSecond);
    this.updatedAt = now;
  }
}
