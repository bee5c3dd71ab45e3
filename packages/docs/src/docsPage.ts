import { loadContract } from '@quotes/contract';
import { sampleOriginPlaceholder } from './clientSamples.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Origins of the contract's `servers`, so a reader may also point "try it" at them. */
function contractServerOrigins(): string[] {
  const servers = (loadContract().servers ?? []) as Array<{ url?: unknown }>;
  const origins = new Set<string>();
  for (const server of servers) {
    if (typeof server.url !== 'string') continue;
    try {
      origins.add(new URL(server.url).origin);
    } catch {
      // A relative server URL is the serving origin, which 'self' already allows.
    }
  }
  return [...origins];
}

/**
 * The browser itself refuses anything not served by this origin, so the page cannot quietly
 * start loading fonts or scripts from a CDN after a renderer upgrade. Styles need
 * 'unsafe-inline' (the renderer injects <style> elements and style attributes; why a nonce cannot
 * replace it: the package README); scripts stay 'self' only.
 */
export function docsPageContentSecurityPolicy(): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...contractServerOrigins()].join(' '),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export interface DocsPageOptions {
  /** Where the router is mounted ('' at the root); every URL in the page starts with it. */
  baseUrl: string;
  /** The page's title (default the contract's title and "API reference"). */
  title?: string;
}

/** The HTML shell of /docs: Scalar's standalone bundle, then our initializer. */
export function renderDocsPage({ baseUrl, title: given }: DocsPageOptions): string {
  const title = escapeHtml(given ?? `${loadContract().info.title}: API reference`);
  const base = escapeHtml(baseUrl);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${title}</title>
    <link rel="stylesheet" href="${base}/docs/assets/reference-page.css">
  </head>
  <body>
    <div id="reference" data-document-url="${base}/docs/reference.json" data-sample-origin="${escapeHtml(sampleOriginPlaceholder)}"></div>
    <script src="${base}/docs/assets/scalar-standalone.js"></script>
    <script src="${base}/docs/assets/reference-initializer.js"></script>
  </body>
</html>
`;
}
