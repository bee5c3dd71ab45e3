// Builds what the published package runs: src/ bundled by esbuild with the repository's own
// packages (@quotes/contract, @quotes/docs) built in, third-party packages left as dependencies,
// and the files those packages read at run time (the contract, the page's initializer) copied
// beside the bundle.
import { copyFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const require = createRequire(import.meta.url);
const contractFile = require.resolve('@quotes/contract/quotes.yaml');
// The docs package exports only its built entry (dist/index.js); its root is one level up.
const docsDir = dirname(dirname(require.resolve('@quotes/docs')));

/** A path that a built-in module computes from its own location, rewritten to the bundle's. */
const relocations = [
  { file: /contractDocument\.js$/, from: "'../quotes.yaml'", to: "'./quotes.yaml'" },
  { file: /swaggerUiAssets\.js$/, from: "'../src/browser/swaggerInitializer.js'", to: "'./swaggerInitializer.js'" },
];

const result = await build({
  entryPoints: [join(root, 'src/index.ts'), join(root, 'src/cli.ts')],
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
          args.path.startsWith('@quotes/') ? undefined : { path: args.path, external: true },
        );
        for (const { file, from, to } of relocations) {
          builder.onLoad({ filter: file }, (args) => {
            const text = readFileSync(args.path, 'utf8');
            if (!text.includes(from)) throw new Error(`${args.path} no longer contains ${from}: update the relocation`);
            return { contents: text.replace(from, to), loader: 'js' };
          });
        }
      },
    },
  ],
});

copyFileSync(contractFile, join(dist, 'quotes.yaml'));
copyFileSync(join(docsDir, 'src/browser/swaggerInitializer.js'), join(dist, 'swaggerInitializer.js'));

// A package the bundle imports but the manifest does not list would be missing for every user
// who installs the tarball; stop the build instead.
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const declared = new Set([
  ...Object.keys(manifest.dependencies ?? {}),
  ...Object.keys(manifest.peerDependencies ?? {}),
]);
const undeclared = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const { path, external } of output.imports) {
    if (!external || path.startsWith('node:') || path.startsWith('.')) continue;
    const name = path
      .split('/')
      .slice(0, path.startsWith('@') ? 2 : 1)
      .join('/');
    if (!declared.has(name)) undeclared.add(name);
  }
}
if (undeclared.size > 0) throw new Error(`the bundle imports ${[...undeclared].join(', ')}, missing from dependencies`);
