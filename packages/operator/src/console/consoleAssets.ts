import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The files under /assets/: uPlot from the package's node_modules (so the console draws its
 * charts offline) and the console's own script and stylesheet, which tsc neither checks nor
 * copies; the path climbs to the package root so it resolves the same from src/ and dist/.
 */
export function consoleAssets(): ReadonlyMap<string, { path: string; type: string }> {
  const uplot = dirname(createRequire(import.meta.url).resolve('uplot/dist/uPlot.iife.min.js'));
  const own = (name: string) => fileURLToPath(new URL(`../../src/console/browser/${name}`, import.meta.url));
  return new Map([
    ['uplot.js', { path: join(uplot, 'uPlot.iife.min.js'), type: 'text/javascript' }],
    ['uplot.css', { path: join(uplot, 'uPlot.min.css'), type: 'text/css' }],
    ['console-charts.js', { path: own('consoleCharts.js'), type: 'text/javascript' }],
    ['console.css', { path: own('console.css'), type: 'text/css' }],
  ]);
}

/** The one asset served without a session: the sign-in page is styled too. */
export const publicAsset = 'console.css';
