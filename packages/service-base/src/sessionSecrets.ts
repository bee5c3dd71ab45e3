import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The secrets of the signed-in pages' sessions (sign-in tokens, cookies, CSRF tokens), one
 * rule for the console and the holders' page: 256 random bits, stored only as a digest, and
 * compared in constant time.
 */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** What a table keeps of a secret: a table read by someone else holds nothing usable. */
export const secretDigest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Whether a presented secret is the expected one, in constant time whatever their lengths. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(secretDigest(given), secretDigest(expected));
}
