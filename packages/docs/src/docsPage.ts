import { loadContract } from '@quotes/contract';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Origins of the contract's `servers`, so a reader may also point "Try it out" at them. */
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
 * start loading fonts or scripts from a CDN after a renderer upgrade. Swagger UI sets inline
 * style attributes, hence 'unsafe-inline' for styles only.
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
}

/** The HTML shell of /docs: Swagger UI's stylesheet and bundle, then our initializer. */
export function renderDocsPage({ baseUrl }: DocsPageOptions): string {
  const title = escapeHtml(`${loadContract().info.title}: API reference`);
  const base = escapeHtml(baseUrl);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${title}</title>
    <link rel="stylesheet" href="${base}/docs/assets/swagger-ui.css">
    <link rel="icon" type="image/png" sizes="32x32" href="${base}/docs/assets/favicon-32x32.png">
    <link rel="icon" type="image/png" sizes="16x16" href="${base}/docs/assets/favicon-16x16.png">
    <style>
      body { margin: 0; background: #fafafa; }
      .contract-links { max-width: 1460px; margin: 0 auto; padding: 12px 20px 0; font-family: sans-serif; font-size: 14px; }
    </style>
  </head>
  <body>
    <nav class="contract-links">The contract: <a href="${base}/openapi.yaml">openapi.yaml</a> · <a href="${base}/openapi.json">openapi.json</a></nav>
    <div id="swagger-ui" data-spec-url="${base}/openapi.json"></div>
    <script src="${base}/docs/assets/swagger-ui-bundle.js"></script>
    <script src="${base}/docs/assets/swagger-initializer.js"></script>
  </body>
</html>
`;
}
