/**
 * The browser origins a key may be used from, as Google's API keys restrict by HTTP referrer:
 * an origin is `scheme://host[:port]` compared exactly (lower case, default port omitted, as
 * browsers send `Origin`), or `scheme://host:*` for any port of that host (local development).
 */

/** How many origins one key may carry. */
export const maxAllowedOrigins = 50;

/** scheme://authority and nothing else: no user, path, query or fragment (the `:*` is taken off first). */
const originShape = /^https?:\/\/[^/?#@\\\s]+$/;
/** One label of a domain name: letters, digits and inner hyphens, 1 to 63 of them. */
const domainLabel = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A host a browser can have been served from: an IP address the URL parser accepted (it refuses
 * a malformed one such as `[:::::]`), or a domain name of whole labels (no `.`, `-` or `a..b`).
 */
function validHost(hostname: string): boolean {
  if (hostname.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname)) return true;
  return hostname.length <= 253 && hostname.split('.').every((label) => domainLabel.test(label));
}

/** What an origin looks like, said after every refusal. */
export const originHint =
  'give scheme://host[:port] (http or https, a valid host, no path), or scheme://host:* for any port';

/**
 * The origin as stored and compared, or an error message saying what is wrong with it. Parsed by
 * the WHATWG URL rules, as browsers parse the pages they send `Origin` from.
 */
export function canonicalOrigin(text: string): { origin: string } | { error: string } {
  const lowered = text.trim().toLowerCase();
  const refused = { error: `"${text.slice(0, 200)}" is not an origin: ${originHint}` };
  if (lowered.length > 200) return refused;
  const anyPort = lowered.endsWith(':*');
  const base = anyPort ? lowered.slice(0, -2) : lowered;
  if (!originShape.test(base)) return refused;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return refused;
  }
  if (!validHost(url.hostname) || (anyPort && url.port !== '')) return refused;
  if (url.port === '0') return { error: `"${text}" has a port outside 1-65535` };
  return { origin: anyPort ? `${url.protocol}//${url.host}:*` : url.origin };
}

/** Whether a browser's `Origin` header is one of a key's allowed origins. */
export function originAllowed(allowed: readonly string[], origin: string): boolean {
  const lowered = origin.toLowerCase();
  for (const entry of allowed) {
    if (entry === lowered) return true;
    if (entry.endsWith(':*')) {
      const base = entry.slice(0, -1);
      if (
        lowered === entry.slice(0, -2) ||
        (lowered.startsWith(base) && /^[0-9]{1,5}$/.test(lowered.slice(base.length)))
      )
        return true;
    }
  }
  return false;
}

/** The demo key's origins: pages on the developer's own machine, whatever port their dev server picks. */
export const localDevelopmentOrigins: readonly string[] = ['http://localhost:*', 'http://127.0.0.1:*'];
