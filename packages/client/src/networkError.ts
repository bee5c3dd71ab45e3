/**
 * The request got no complete answer: the connection failed, or the answer took longer than the
 * client's `timeoutMs`. `attempts` counts the tries made (more than one with `retry` on).
 */
export class QuotesNetworkError extends Error {
  override readonly name = 'QuotesNetworkError';
  readonly reason: 'timeout' | 'network';
  readonly attempts: number;

  constructor(reason: 'timeout' | 'network', message: string, attempts: number, cause: unknown) {
    super(message, { cause });
    this.reason = reason;
    this.attempts = attempts;
  }
}
