// Builds what the published package runs: src/cli.ts bundled by esbuild with @quotes/contract
// inside, third-party packages left as dependencies, and @quotes/server / @quotes/mock loaded
// only when a run needs them (a local target, --mock). The contract is copied beside the bundle.
import { copyFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { assertImportsDeclared, packageNameOf } from '../../../scripts/declaredImports.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const require = createRequire(import.meta.url);
const inside = new Set(['@quotes/contract']);

/** A path that a built-in module computes from its own location, rewritten to the bundle's. */
const relocations = [
  { file: /contractDocument\.js$/, loader: 'js', from: "'../quotes.yaml'", to: "'./quotes.yaml'" },
  { file: /runDredd\.ts$/, loader: 'ts', from: "'../../hooks/dreddHooks.cjs'", to: "'../hooks/dreddHooks.cjs'" },
];

const result = await build({
  entryPoints: [join(root, 'src/cli.ts')],
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  logLevel: 'warning',
  metafile: true,
  plugins: [
    {
      name: 'repository-packages-inside',
      setup(builder) {
        builder.onResolve({ filter: /^[^./]/ }, (args) =>
          inside.has(packageNameOf(args.path)) ? undefined : { path: args.path, external: true },
        );
        for (const { file, loader, from, to } of relocations) {
          builder.onLoad({ filter: file }, (args) => {
            const text = readFileSync(args.path, 'utf8');
            if (!text.includes(from)) throw new Error(`${args.path} no longer contains ${from}: update the relocation`);
            return { contents: text.replace(from, to), loader };
          });
        }
      },
    },
  ],
});

copyFileSync(require.resolve('@quotes/contract/quotes.yaml'), join(dist, 'quotes.yaml'));

// Imported only by runs without --base-url, which need this repository and say so when it is absent.
assertImportsDeclared(result.metafile, root, ['@quotes/server']);
