/**
 * The browser origins a key may be used from, as Google's API keys restrict by HTTP referrer:
 * an origin is `scheme://host[:port]` compared exactly (lower case, default port omitted, as
 * browsers send `Origin`), or `scheme://host:*` for any port of that host (local development).
 */

/** How many origins one key may carry. */
export const maxAllowedOrigins = 50;

const originPattern = /^(https?):\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::([0-9]{1,5}|\*))?$/;

/** The origin as stored and compared, or an error message saying what is wrong with it. */
export function canonicalOrigin(text: string): { origin: string } | { error: string } {
  const lowered = text.trim().toLowerCase();
  const match = originPattern.exec(lowered);
  if (!match || lowered.length > 200) {
    return {
      error: `"${text.slice(0, 200)}" is not an origin: give scheme://host[:port] (http or https, no path), or scheme://host:* for any port`,
    };
  }
  const [, scheme, host, port] = match;
  if (port !== undefined && port !== '*') {
    const number = Number(port);
    if (number < 1 || number > 65535) return { error: `"${text}" has a port outside 1-65535` };
    const defaultPort = scheme === 'https' ? 443 : 80;
    if (number === defaultPort) return { origin: `${scheme}://${host}` };
    return { origin: `${scheme}://${host}:${number}` };
  }
  return { origin: port === '*' ? `${scheme}://${host}:*` : `${scheme}://${host}` };
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
