import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * Absolute path of the contract. Resolved through @quotes/contract's `./quotes.yaml` export
 * rather than its compiled entry point, so `npm run mock` works in a fresh clone before any build.
 */
export const mockContractPath: string = require.resolve('@quotes/contract/quotes.yaml');

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
