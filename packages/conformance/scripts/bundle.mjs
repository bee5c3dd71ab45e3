// Builds what the published package runs: src/cli.ts bundled by esbuild with @quotes/contract
// inside, third-party packages left as dependencies, and @quotes/server / @quotes/mock loaded
// only when a run needs them (a local target, --mock). The contract is copied beside the bundle.
import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundlePackage } from '../../../scripts/bundlePackage.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const require = createRequire(import.meta.url);
const inside = new Set(['@quotes/contract']);

/** A path that a built-in module computes from its own location, rewritten to the bundle's. */
const relocations = [
  { file: /contractDocument\.js$/, from: "'../quotes.yaml'", to: "'./quotes.yaml'" },
  { file: /runDredd\.ts$/, from: "'../../hooks/dreddHooks.cjs'", to: "'../hooks/dreddHooks.cjs'" },
];

await bundlePackage({
  packageRoot: root,
  entryPoints: [join(root, 'src/cli.ts')],
  outdir: dist,
  inside: (name) => inside.has(name),
  relocations,
  // Imported only by runs without --base-url, which need this repository and say so when it is absent.
  allowedUndeclared: ['@quotes/server'],
});

copyFileSync(require.resolve('@quotes/contract/quotes.yaml'), join(dist, 'quotes.yaml'));
