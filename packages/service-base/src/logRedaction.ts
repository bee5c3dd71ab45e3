import { apiKeyPrefix } from './apiKeyShape.js';

/** What a secret or an address in a log line is replaced with. */
export const redactedText = '[redacted]';

const prefixLetters = apiKeyPrefix.replace(/_$/, '');
/**
 * A key, whole or in part: its prefix (the underscore perhaps percent-encoded) and more than the
 * eight characters of its display prefix (apiKeySecret.ts), which is not secret and names the key.
 */
const keyShaped = new RegExp(
  // The whole run it stands in is taken (a key inside a longer token leaves no part of either);
  // anchored where the run starts, so a long run costs one pass.
  `(?<![A-Za-z0-9_-])[A-Za-z0-9_-]*${prefixLetters}(?:_|%5f)[A-Za-z0-9]{9,}[A-Za-z0-9_-]*`,
  'gi',
);
/** Credentials (RFC 9110's token68, 8 characters or more) after an authorization scheme, wherever a header's value was copied to. */
const schemeCredentials = /\b(Bearer|Basic|Token)(?:\s+|%20|\+)[A-Za-z0-9._~+/=-]{8,}/gi;
/**
 * An e-mail address, its `@` perhaps percent-encoded: personal data. Each match starts where a
 * run of address characters starts, so a long run without an `@` costs one pass, not one per
 * character (a 16 KB URL of letters would otherwise take seconds).
 */
const emailShaped = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/gi;
const mayHoldAddressOrKey = /qk|%5f|@|%40|bearer|basic|token/i;
/** A run of base62/base64url characters long enough to hold a secret (a key without its prefix is 24). */
const minRunLength = 20;
const longRun = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g;
const hexOrUuid = /^[0-9a-fA-F-]+$/;
/** A migration's name, its timestamp and small words (`20261123T0900_plans_keys_usage`): the start-up log lists them. */
const migrationName = /^[0-9]{8}T[0-9]{4}_[a-z][a-z0-9_]*$/;

/**
 * Whether a long run reads as random text (a token, a key without its prefix, a confirmation
 * link's 32 characters, the console's 43-character sign-in token) rather than a word or a name
 * in code. Random base62 mixes letters and digits, or, without digits, has about as many
 * capitals as small letters, or capitals side by side; an identifier
 * (`processTicksAndRejections`) has few capitals, one at a time; hexadecimal ids and UUIDs
 * (request ids) are kept. Measured on 200,000 random tokens of each kind, twice: every key with
 * its prefix and every 43-character base64url token redacted; of 24 base62 characters (a key
 * without its prefix) 1 in 100,000 passes, of 32 (a link's token) 1 in 400,000.
 */
function randomLooking(run: string): boolean {
  if (hexOrUuid.test(run) || migrationName.test(run)) return false;
  const capitals = run.replace(/[^A-Z]/g, '').length;
  const smalls = run.replace(/[^a-z]/g, '').length;
  const digits = run.replace(/[^0-9]/g, '').length;
  if (capitals > 0 && smalls > 0) {
    if (digits > 0) return true;
    // Words in code put one capital before small letters (camelCase); random text often two together.
    const share = capitals / (capitals + smalls);
    return (share >= 0.25 && share <= 0.75) || /[A-Z]{2}/.test(run);
  }
  // One case only (a host name such as a pod's `quotes-7d9f8b6c5d-x2k4j`): a secret only as
  // one unbroken piece of letters and digits.
  return run.split(/[-_]/).some((piece) => piece.length >= 20 && /[0-9]/.test(piece) && /[A-Za-z]/.test(piece));
}

const runCharacters = new Uint8Array(128);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-')
  runCharacters[char.charCodeAt(0)] = 1;

const isRunCharacter = (text: string, at: number) => {
  const code = text.charCodeAt(at);
  return code < 128 && runCharacters[code] === 1;
};

/** Hexadecimal digits and hyphens, which a request's UUID (in every line) is made of. */
const isHexCharacter = (code: number) => {
  const small = code | 0x20;
  return (code >= 0x30 && code <= 0x39) || (small >= 0x61 && small <= 0x66) || code === 0x2d;
};

/**
 * Whether the text has a long run that reads as random. Every run of `minRunLength` or more
 * covers one of every `minRunLength`-th character, so only those are looked at, and the run
 * around one widened (noting on the way whether it is all hexadecimal, so a UUID is passed over
 * without a copy): a third of the reads of a plain scan, a fifth of a regular expression's time.
 */
function hasRandomRun(text: string): boolean {
  for (let probe = minRunLength - 1; probe < text.length; probe += minRunLength) {
    if (!isRunCharacter(text, probe)) continue;
    let hex = isHexCharacter(text.charCodeAt(probe));
    let start = probe;
    while (start > 0 && isRunCharacter(text, start - 1)) {
      start--;
      hex &&= isHexCharacter(text.charCodeAt(start));
    }
    let end = probe + 1;
    while (end < text.length && isRunCharacter(text, end)) {
      hex &&= isHexCharacter(text.charCodeAt(end));
      end++;
    }
    if (end - start >= minRunLength && !hex && randomLooking(text.slice(start, end))) return true;
    // The next probe past this run (a probe inside it would find it again).
    while (probe + minRunLength < end) probe += minRunLength;
  }
  return false;
}

/**
 * A first look, cheap enough for every log line (about a fifth of what serialising a request's
 * line costs): false means `redactSecrets` would change nothing.
 */
export function mayHoldSecret(text: string): boolean {
  return mayHoldAddressOrKey.test(text) || hasRandomRun(text);
}

/**
 * Text with every key, credential, token-shaped run and e-mail address replaced: the rule every
 * log line passes (log.ts applies it to each line as written).
 */
export function redactSecrets(text: string): string {
  if (!mayHoldSecret(text)) return text;
  return text
    .replace(emailShaped, redactedText)
    .replace(keyShaped, redactedText)
    .replace(schemeCredentials, (_match, scheme: string) => `${scheme} ${redactedText}`)
    .replace(longRun, (run) => (randomLooking(run) ? redactedText : run));
}

/**
 * One serialised JSON log line with `redactSecrets` applied to each string in it (values and
 * names), so whatever field carries a secret (a URL, an error's message or stack, a header
 * someone logs one day) the line written has none. The line stays valid JSON: a string holding
 * escapes is decoded, redacted and encoded again; one without is redacted as it is (the rule only
 * removes characters and inserts `[redacted]`).
 */
export function redactLogLine(line: string): string {
  if (!mayHoldSecret(line)) return line;
  return line.replace(/"((?:[^"\\]|\\.)*)"/g, (quoted, inner: string) => {
    if (!inner.includes('\\')) {
      const clean = redactSecrets(inner);
      return clean === inner ? quoted : `"${clean}"`;
    }
    const value = JSON.parse(quoted) as string;
    const clean = redactSecrets(value);
    return clean === value ? quoted : JSON.stringify(clean);
  });
}
