// The check both published bundles (packages/mock, packages/conformance) run after esbuild: a
// package the bundle imports but the manifest does not list would be missing for every user who
// installs the tarball, so the build stops instead.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `@scope/name/sub/path` -> `@scope/name`, `name/sub` -> `name`. */
export function packageNameOf(specifier) {
  return specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
}

/**
 * Throws naming every package an esbuild `metafile`'s outputs import (external, not node: and not
 * relative) that `packageRoot`'s package.json lists neither in dependencies nor in
 * peerDependencies, except those in `allowed`.
 */
export function assertImportsDeclared(metafile, packageRoot, allowed = []) {
  const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
  const declared = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...allowed,
  ]);
  const undeclared = new Set();
  for (const output of Object.values(metafile.outputs)) {
    for (const { path, external } of output.imports) {
      if (!external || path.startsWith('node:') || path.startsWith('.')) continue;
      const name = packageNameOf(path);
      if (!declared.has(name)) undeclared.add(name);
    }
  }
  if (undeclared.size > 0) {
    throw new Error(`the bundle imports ${[...undeclared].join(', ')}, missing from dependencies`);
  }
}
