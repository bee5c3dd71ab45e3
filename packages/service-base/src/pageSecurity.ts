import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * The response headers of the service's signed-in pages (the operator's console, the holders'
 * page), with helmet: scripts, styles and images only from the page's own origin, no inline
 * script or style, forms posted only to it, no framing, no referrer (a sign-in URL never
 * leaves in one), no sniffing, nothing cached. Strict-Transport-Security only where the pages
 * are served over https: over plain HTTP on loopback it would only mislead.
 */
export function pageSecurityHeaders(options: { https?: boolean } = {}): RequestHandler[] {
  return [
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
      strictTransportSecurity: options.https === true,
    }),
    (_request, response, next) => {
      response.setHeader('Cache-Control', 'no-store');
      next();
    },
  ];
}

/**
 * Whether a POST to the service's pages came from its own pages or from a script, never from
 * another site's page (a form there could make a visitor's browser act for it, or sign them in
 * to someone else's session): a browser's `Sec-Fetch-Site` saying another site (another port of
 * the same host included), or an `Origin` that is neither the public URL's nor the Host's, is
 * refused. The key pages and the holders' page both ask this.
 */
export function postedFromOwnSite(request: IncomingMessage, publicOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return false;
  if (site === 'same-origin') return true;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  if (origin === publicOrigin) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}
