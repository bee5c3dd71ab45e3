import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

/** The published packages, by name, as `npm pack` made them for this run. */
export type PackedTarballs = Record<(typeof published)[number], string>;

declare module 'vitest' {
  export interface ProvidedContext {
    packedTarballs: PackedTarballs;
  }
}

export const published = ['@quotes/client', '@quotes/mock', '@quotes/conformance'] as const;

const repository = fileURLToPath(new URL('../../../..', import.meta.url));

/**
 * Packs the three published packages once for every test file of the run (each file packed its
 * own before: the client twice), into a folder under the system's temporary folder removed after.
 * prepack builds each package, so the tarballs hold what this checkout's sources make.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(join(tmpdir(), 'quotes-tarballs-'));
  await promisify(execFile)(
    'npm',
    ['pack', '--pack-destination', folder, ...published.flatMap((name) => ['-w', name])],
    { cwd: repository, maxBuffer: 64 << 20, timeout: 180_000 },
  );
  const files = (await readdir(folder)).filter((file) => file.endsWith('.tgz'));
  // npm names a scoped package's tarball quotes-client-1.0.0.tgz.
  const tarballs = Object.fromEntries(
    published.map((name) => {
      const prefix = `${name.slice(1).replace('/', '-')}-`;
      const matching = files.filter((file) => file.startsWith(prefix) && /^\d/.test(file.slice(prefix.length)));
      if (matching.length !== 1) throw new Error(`npm pack made ${matching.length} tarballs of ${name}: ${files}`);
      return [name, join(folder, matching[0]!)];
    }),
  ) as PackedTarballs;
  project.provide('packedTarballs', tarballs);
  return () => rm(folder, { recursive: true, force: true });
}
