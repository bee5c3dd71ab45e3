import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@hey-api/openapi-ts';
import { contractPath } from '@quotes/contract';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The server is typed by the contract: with a response field renamed in a copy of the contract
 * (and the types generated from that copy), the server's own sources fail to typecheck. The
 * same sources against an unchanged copy typecheck, so the failure is the rename's.
 */
const serverRoot = fileURLToPath(new URL('../', import.meta.url));
const tsc = fileURLToPath(new URL('../../../node_modules/.bin/tsc', import.meta.url));
const probes = join(serverRoot, 'test-output', `contract-typing-${randomBytes(4).toString('hex')}`);

afterAll(() => rm(probes, { recursive: true, force: true }));

/** Typechecks the server's src against a contract package built from `yaml`; the exit code and tsc's output. */
async function typecheckAgainst(name: string, yaml: string): Promise<{ code: number; output: string }> {
  const probe = join(probes, name);
  const contract = join(probe, 'contract');
  await mkdir(contract, { recursive: true });
  await cp(join(dirname(contractPath), 'src'), join(contract, 'src'), {
    recursive: true,
    filter: (source) => !source.includes(`${join('src', 'generated')}`),
  });
  await writeFile(join(contract, 'quotes.yaml'), yaml);
  await createClient({
    input: join(contract, 'quotes.yaml'),
    output: { path: join(contract, 'src', 'generated'), module: { extension: '.js' } },
    plugins: ['@hey-api/typescript'],
    logs: { level: 'silent' },
  });
  const config = join(probe, 'tsconfig.json');
  await writeFile(
    config,
    JSON.stringify({
      extends: join(serverRoot, 'tsconfig.json'),
      compilerOptions: { noEmit: true, paths: { '@quotes/contract': [join(contract, 'src', 'index.ts')] } },
      include: [join(serverRoot, 'src'), join(contract, 'src')],
    }),
  );
  return new Promise((resolve) => {
    execFile(process.execPath, [tsc, '-p', config], { timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

describe('the server typed by the contract', () => {
  it('fails typecheck when a response field is renamed in the contract', { timeout: 240_000 }, async () => {
    const yaml = await readFile(contractPath, 'utf8');
    const unchanged = await typecheckAgainst('unchanged', yaml);
    expect(unchanged).toEqual({ code: 0, output: '' });

    expect(yaml).toContain('calls_this_month');
    const renamed = await typecheckAgainst('renamed', yaml.replaceAll('calls_this_month', 'calls_in_month'));
    expect(renamed.code).not.toBe(0);
    expect(renamed.output).toMatch(/src\/domain\/responseBodies\.ts.*calls_this_month/);
  });
});
