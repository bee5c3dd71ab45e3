import { isIP } from 'node:net';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * The console's response headers (helmet): scripts only from the console itself, no inline
 * script or style, no framing, no referrer (a sign-in URL never leaves in one), no sniffing,
 * nothing cached.
 */
export const consoleHeaders: RequestHandler[] = [
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'"],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    // Served over plain HTTP on loopback: a Strict-Transport-Security header would only mislead.
    strictTransportSecurity: false,
  }),
  (_request, response, next) => {
    response.setHeader('Cache-Control', 'no-store');
    next();
  },
];

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The Host names a request may carry: the address bound, and on loopback `localhost`. A page
 * of another site whose name was re-pointed at this address (DNS rebinding) sends its own
 * name and is refused. Bound to every interface, only IP literals pass: rebinding needs a name.
 */
export function allowedHost(boundHost: string, port: number): (hostHeader: string | undefined) => boolean {
  const bound = isIP(boundHost) === 6 ? `[${boundHost}]` : boundHost.toLowerCase();
  const wildcard = boundHost === '0.0.0.0' || boundHost === '::';
  const loopback = loopbackNames.has(bound) || boundHost.startsWith('127.');
  return (hostHeader) => {
    if (!hostHeader) return false;
    const match = /^(\[[0-9a-f:.]+\]|[^:]+)(?::(\d+))?$/i.exec(hostHeader.trim().toLowerCase());
    if (!match || Number(match[2] ?? 80) !== port) return false;
    const name = match[1]!;
    if (name === bound) return true;
    if (loopback && loopbackNames.has(name)) return true;
    return wildcard && isIP(name.replace(/^\[|\]$/g, '')) !== 0;
  };
}
