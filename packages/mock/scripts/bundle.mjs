// Builds what the published package runs: src/ bundled by esbuild with the repository's own
// packages (@quotes/contract, @quotes/docs) built in, third-party packages left as dependencies,
// and the files those packages read at run time (the contract, the page's initializer and
// stylesheet, Scalar's browser bundle) copied beside the bundle. Scalar is copied rather than depended on:
// the page serves one 4 MB file of @scalar/api-reference, whose install is 272 packages.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundlePackage } from '../../../scripts/bundlePackage.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const require = createRequire(import.meta.url);
const contractFile = require.resolve('@quotes/contract/quotes.yaml');
// The docs package exports only its built entry (dist/index.js); its root is one level up.
const docsDir = dirname(dirname(require.resolve('@quotes/docs')));
// Resolved from the docs package, which is the one that depends on it.
const scalarMain = createRequire(join(docsDir, 'package.json')).resolve('@scalar/api-reference');
const scalarManifest = JSON.parse(readFileSync(join(dirname(dirname(scalarMain)), 'package.json'), 'utf8'));

/** A path that a built-in module computes from its own location, rewritten to the bundle's. */
const relocations = [
  { file: /contractDocument\.js$/, from: "'../quotes.yaml'", to: "'./quotes.yaml'" },
  {
    file: /rendererAssets\.js$/,
    from: "'../src/browser/referenceInitializer.js'",
    to: "'./referenceInitializer.js'",
  },
  { file: /rendererAssets\.js$/, from: "'../src/browser/referencePage.css'", to: "'./referencePage.css'" },
  // dirname() of it is dist/, where browser/standalone.js is copied.
  {
    file: /rendererAssets\.js$/,
    from: "createRequire(import.meta.url).resolve('@scalar/api-reference')",
    to: "fileURLToPath(new URL('./index.js', import.meta.url))",
  },
];

await bundlePackage({
  packageRoot: root,
  entryPoints: [join(root, 'src/index.ts'), join(root, 'src/cli.ts')],
  outdir: dist,
  inside: (name) => name.startsWith('@quotes/'),
  relocations,
});

copyFileSync(contractFile, join(dist, 'quotes.yaml'));
copyFileSync(join(docsDir, 'src/browser/referenceInitializer.js'), join(dist, 'referenceInitializer.js'));
copyFileSync(join(docsDir, 'src/browser/referencePage.css'), join(dist, 'referencePage.css'));
mkdirSync(join(dist, 'browser'));
copyFileSync(join(dirname(scalarMain), 'browser/standalone.js'), join(dist, 'browser/standalone.js'));
writeFileSync(
  join(dist, 'browser/standalone.NOTICE.md'),
  `browser/standalone.js is the standalone browser bundle of ${scalarManifest.name} ${scalarManifest.version}
(${scalarManifest.homepage}), copied unchanged. ${scalarManifest.license} License, Copyright (c) 2023-present Scalar.

Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
associated documentation files (the "Software"), to deal in the Software without restriction,
including without limitation the rights to use, copy, modify, merge, publish, distribute,
sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions: the above copyright notice and this
permission notice shall be included in all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
`,
);
