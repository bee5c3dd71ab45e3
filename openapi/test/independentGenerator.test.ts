import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { contractPath } from '../src/index.js';

// What a team that never uses @quotes/client gets from the contract: openapi-typescript's types,
// compiled under `strict` with assertions that the enums and nullable enums stay unions.
// The native compiler (TypeScript 7) that typechecks this repository; its package exports no bin path.
const tsc = join(dirname(createRequire(import.meta.url).resolve('@typescript/native/package.json')), 'bin', 'tsc');
let folder: string | undefined;
afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

const assertions = `import type { components, paths } from './quotes.ts';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Schemas = components['schemas'];
type Quote = Schemas['Quote'];

export const faithIsNullableEnum: Equal<Quote['faith_tradition'], Schemas['FaithTradition'] | null> = true;
export const secondaryIsNullableEnum: Equal<Quote['secondary_category'], Schemas['Category'] | null> = true;
export const eraIsUnion: Equal<Quote['era'], 'Ancient' | 'Medieval' | 'Early Modern' | 'Modern' | 'Contemporary' | 'Present'> = true;
export const faithIsUnion: Equal<Schemas['FaithTradition'], 'Christian' | 'Islamic' | 'Buddhist' | 'Jewish' | 'Hindu' | 'Taoist' | 'Confucian'> = true;
export const planIsUnion: Equal<Schemas['Usage']['tier'], 'trial' | 'starter' | 'professional' | 'platform' | 'enterprise'> = true;

// @ts-expect-error a misspelt era does not compile
export const typo: Quote['era'] = 'Moderm';
// @ts-expect-error nor does a faith outside the enum
export const unknownFaith: Quote['faith_tradition'] = 'Pastafarian';

type Unavailable = paths['/v1/quotes-random']['get']['responses'][503];
export const retryAfterOn503: Equal<Unavailable['headers']['Retry-After'], number> = true;
`;

describe('openapi-typescript (an independent generator) on the contract', () => {
  it('generates types that compile under strict with every union intact', async () => {
    folder = await mkdtemp(join(tmpdir(), 'quotes-openapi-typescript-'));
    const ast = await openapiTS(pathToFileURL(contractPath));
    await writeFile(join(folder, 'quotes.ts'), astToString(ast));
    await writeFile(join(folder, 'assertions.ts'), assertions);
    await writeFile(
      join(folder, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          allowImportingTsExtensions: true,
          noEmit: true,
          types: [],
        },
        include: ['*.ts'],
      }),
    );
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', folder]).then(
      () => '',
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
    );
    expect(result).toBe('');
  });
});
