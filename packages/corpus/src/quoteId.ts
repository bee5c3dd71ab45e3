import * as crypto from 'node:crypto';

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// 72 bits: a collision among 1.5 million quotes has odds of about 1 in 4 * 10^9.
const idBytes = 9;
const idDigits = 13; // 62^13 > 2^72, so every id has the same width

// Every UTF-16 unit below 0x80: tested by code rather than a control-character regex.
function isAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 0x7f) return false;
  return true;
}
// In ASCII, \p{P} and \p{S} are exactly the 32 punctuation characters, so both paths agree.
const asciiPunctuation = /[!-/:-@[-`{-~]+/g;

/**
 * The form two quotes are compared in: case, whitespace, punctuation and symbols do not make a
 * different quote ("Don't   panic!" and "dont panic" are the same words). NFKC folds
 * compatibility forms (full-width letters, ligatures) first.
 */
export function normaliseForIdentity(value: string): string {
  // Most texts are plain ASCII; they skip the (much slower) Unicode normalisation.
  const folded = isAscii(value)
    ? value.toLowerCase().replace(asciiPunctuation, '')
    : value
        .normalize('NFKC')
        .toLowerCase()
        .replace(/[\p{P}\p{S}]+/gu, '');
  // Same result as replacing every /\s+/ run with one space, without touching the (many) single spaces.
  return folded.replace(/\s\s+|[^\S ]/gu, ' ').trim();
}

// One-shot hashing (Node >= 20.12) avoids a Hash object per quote; same digest either way.
const sha256: (input: string) => Buffer =
  typeof (crypto as { hash?: unknown }).hash === 'function'
    ? (input) =>
        (crypto as unknown as { hash(algorithm: string, data: string, encoding: 'buffer'): Buffer }).hash(
          'sha256',
          input,
          'buffer',
        )
    : (input) => crypto.createHash('sha256').update(input).digest();

/**
 * Stable id of a quote: a hash of its normalised text and author. Re-importing the same quote
 * gives the same id, so clients that stored ids keep working; it is also the de-duplication key.
 * Changing this function changes every id: never do it.
 */
export function quoteId(text: string, author: string): string {
  const digest = sha256(`${normaliseForIdentity(text)}\n${normaliseForIdentity(author)}`);
  // The first 9 bytes as a big-endian number, written in base 62 by long division.
  const number = Array.from(digest.subarray(0, idBytes));
  let digits = '';
  for (let digit = 0; digit < idDigits; digit++) {
    let remainder = 0;
    for (let i = 0; i < number.length; i++) {
      const current = remainder * 256 + number[i]!;
      number[i] = Math.floor(current / 62);
      remainder = current % 62;
    }
    digits = base62[remainder]! + digits;
  }
  return `q_${digits}`;
}
