import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { contractPath } from '@quotes/contract';

const require = createRequire(import.meta.url);

/** Absolute path of the contract Prism serves: the repository's, or the copy the package carries. */
export const mockContractPath: string = contractPath;

/** The Prism CLI's JavaScript entry point, run with this Node rather than through a shell shim. */
export function prismBinPath(): string {
  const manifestPath = require.resolve('@stoplight/prism-cli/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: { prism: string } };
  return join(dirname(manifestPath), manifest.bin.prism);
}

/** Arguments after `node` for `prism mock` serving the contract. */
export function prismMockArgs(host: string, port: number, contract: string = mockContractPath): string[] {
  return [prismBinPath(), 'mock', '-h', host, '-p', String(port), contract];
}
