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
