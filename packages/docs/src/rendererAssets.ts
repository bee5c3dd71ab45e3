import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Scalar's standalone browser bundle from the installed @scalar/api-reference (the package's
 * exports do not list it, so it is found beside the package's main entry, dist/index.js).
 */
export const scalarBundlePath: string = join(
  dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')),
  'browser/standalone.js',
);

/**
 * Our own initializer. It is browser JavaScript, so tsc neither checks nor copies it; the path
 * climbs to the package root so it resolves the same from src/ (tests) and dist/ (npm start).
 */
export const initializerPath: string = fileURLToPath(
  new URL('../src/browser/referenceInitializer.js', import.meta.url),
);

/** Our corrections to the renderer's layout, beside the initializer for the same reason. */
export const stylesheetPath: string = fileURLToPath(new URL('../src/browser/referencePage.css', import.meta.url));

/**
 * The only files served under /docs/assets/: the bundle (no chunks: it loads none), the
 * initializer and the stylesheet.
 */
export const docsAssets: ReadonlyMap<string, string> = new Map([
  ['scalar-standalone.js', scalarBundlePath],
  ['reference-initializer.js', initializerPath],
  ['reference-page.css', stylesheetPath],
]);
