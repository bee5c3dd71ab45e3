import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folder of the installed swagger-ui-dist package: the page's scripts come from here, never a CDN. */
export const swaggerUiDistDir: string = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/**
 * Our own initializer. It is browser JavaScript, so tsc neither checks nor copies it; the path
 * climbs to the package root so it resolves the same from src/ (tests) and dist/ (npm start).
 */
const initializerPath: string = fileURLToPath(new URL('../src/browser/swaggerInitializer.js', import.meta.url));

/**
 * The only files served under /docs/assets/. A list rather than a static folder, because the
 * package also ships an index.html and an initializer pointing at the Petstore on the internet.
 */
export const docsAssets: ReadonlyMap<string, string> = new Map([
  ['swagger-ui.css', join(swaggerUiDistDir, 'swagger-ui.css')],
  ['swagger-ui-bundle.js', join(swaggerUiDistDir, 'swagger-ui-bundle.js')],
  ['favicon-32x32.png', join(swaggerUiDistDir, 'favicon-32x32.png')],
  ['favicon-16x16.png', join(swaggerUiDistDir, 'favicon-16x16.png')],
  ['swagger-initializer.js', initializerPath],
]);
