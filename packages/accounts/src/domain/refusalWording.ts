import { rules } from '@quotes/contract';

/**
 * What a mail or page says a refused call gets: the status and problem type the contract's
 * documented responses give that kind of refusal, never a number written here.
 */
export function refusedWith(
  kind: 'invalid-api-key' | 'revoked-api-key' | 'expired-api-key' | 'allowance-exhausted',
): string {
  const status = rules.problemStatuses.get(kind);
  if (status === undefined) throw new Error(`openapi/quotes.yaml documents no response for ${kind}`);
  return `refused with ${status} (${kind})`;
}
