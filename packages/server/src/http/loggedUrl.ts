import { redactedText, redactSecrets } from '@quotes/service-base';

/** Query parameters whose value is a credential whatever it looks like (`?api_key=`, a link's `?token=`). */
const credentialName = /key|token|secret|pass|auth|session|sig|cred/i;
/** The request log keeps this much of a URL (its path and query are bounded by Node's 16 KB of headers). */
export const loggedUrlLength = 2048;

/** A URL piece as a server reads it: `+` as a space in a query, percent-escapes undone (twice-encoded too). */
function decoded(piece: string, inQuery: boolean): string {
  let text = inQuery ? piece.replaceAll('+', ' ') : piece;
  for (let round = 0; round < 3 && text.includes('%'); round++) {
    let next: string;
    try {
      next = decodeURIComponent(text);
    } catch {
      // A malformed escape elsewhere in the piece: undo the well-formed ones, byte by byte.
      next = text.replace(/%([0-9a-f]{2})/gi, (_escape, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    }
    if (next === text) break;
    text = next;
  }
  return text;
}

/** The piece as written, unless it holds a secret or an address as written or as decoded. */
function safePiece(piece: string, inQuery: boolean): string {
  const plain = decoded(piece, inQuery);
  return redactSecrets(piece) === piece && redactSecrets(plain) === plain ? piece : redactedText;
}

/**
 * A request's URL as the request log writes it: each path segment, parameter name and value that
 * holds a key, a token, a credential or an e-mail address (as sent or percent-decoded) replaced
 * by `[redacted]`, the value of a credential-named parameter always; at most `loggedUrlLength`
 * characters.
 */
export function loggedUrl(url: string): string {
  // Nearly every URL: nothing encoded, no credential-named parameter. A secret written plainly in
  // it is redacted with the rest of the line (log.ts); pieces are looked at here only when
  // decoding could reveal one, or a parameter's name says its value is one.
  if (!url.includes('%') && !credentialName.test(url)) return bounded(url);
  const queryStart = url.indexOf('?');
  const path = queryStart < 0 ? url : url.slice(0, queryStart);
  const segments = path.split('/').map((segment) => safePiece(segment, false));
  let logged = segments.join('/');
  if (queryStart >= 0) {
    const pairs = url
      .slice(queryStart + 1)
      .split('&')
      .map((pair) => {
        const equals = pair.indexOf('=');
        if (equals < 0) return safePiece(pair, true);
        const name = pair.slice(0, equals);
        const value = pair.slice(equals + 1);
        const credential = credentialName.test(decoded(name, true)) && value !== '';
        return `${safePiece(name, true)}=${credential ? redactedText : safePiece(value, true)}`;
      });
    logged += `?${pairs.join('&')}`;
  }
  return bounded(logged);
}

const bounded = (url: string) => (url.length > loggedUrlLength ? `${url.slice(0, loggedUrlLength)}…` : url);
