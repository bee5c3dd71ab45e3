/**
 * Whether an error means the database cannot be reached right now (answered 503 and retried by
 * the client) rather than a defect (500).
 */
const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // SQLSTATE class 08 (connection exception), operator intervention, too many connections.
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  // statement_timeout: a statement PostgreSQL itself gave up on (a hung or overloaded database).
  '57014',
  '53300',
]);

const unreachableMessages =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Connection refused|the database system is (starting up|shutting down|in recovery mode)|Cannot use a pool after calling end/i;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 3) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && unreachableCodes.has(code)) return true;
  if (unreachableMessages.test(error.message)) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1)))
    return true;
  return isDatabaseUnavailable((error as { cause?: unknown }).cause, depth + 1);
}
