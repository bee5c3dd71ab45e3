// How both published bundles (packages/mock, packages/conformance) are built: esbuild with the
// chosen repository packages bundled in, every other package left as an import the manifest must
// list, and the paths built-in modules compute from their own location rewritten to the bundle's.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { assertImportsDeclared, packageNameOf } from './declaredImports.mjs';

/**
 * Bundles `entryPoints` into `outdir` (ESM, code-split, for Node 24). `inside(packageName)` says
 * which bare imports are bundled; `relocations` ({ file: RegExp, from, to }) each rewrite one
 * text of a matching file, and fail the build when the text is gone; `allowedUndeclared` are
 * imports the package may leave out of its manifest (loaded only when present).
 */
export async function bundlePackage({ packageRoot, entryPoints, outdir, inside, relocations, allowedUndeclared = [] }) {
  const files = new Map(relocations.map(({ file }) => [file.source, file]));
  const result = await build({
    entryPoints,
    outdir,
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
            inside(packageNameOf(args.path)) ? undefined : { path: args.path, external: true },
          );
          for (const file of files.values()) {
            builder.onLoad({ filter: file }, (args) => {
              let text = readFileSync(args.path, 'utf8');
              for (const { from, to } of relocations.filter((relocation) => relocation.file.source === file.source)) {
                if (!text.includes(from))
                  throw new Error(`${args.path} no longer contains ${from}: update the relocation`);
                text = text.replace(from, to);
              }
              return { contents: text, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
            });
          }
        },
      },
    ],
  });
  assertImportsDeclared(result.metafile, packageRoot, allowedUndeclared);
}
