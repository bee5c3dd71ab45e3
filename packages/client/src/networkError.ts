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

interface SystemErrorFields {
  code?: unknown;
  address?: unknown;
  port?: unknown;
  cause?: unknown;
}

/**
 * An error's message with the system error code found on it or its causes, as
 * `fetch failed (ECONNREFUSED 127.0.0.1:3999)`: Node's fetch says only `fetch failed` and keeps
 * the code on `cause.cause`.
 */
export function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // A few levels are all fetch nests; the bound also ends a cycle of causes.
  let node: unknown = error;
  for (let depth = 0; depth < 4 && typeof node === 'object' && node !== null; depth++) {
    const { code, address, port, cause } = node as SystemErrorFields;
    if (typeof code === 'string') {
      const where = typeof address === 'string' ? ` ${address}${typeof port === 'number' ? `:${port}` : ''}` : '';
      return message.includes(code) ? message : `${message} (${code}${where})`;
    }
    node = cause;
  }
  return message;
}
