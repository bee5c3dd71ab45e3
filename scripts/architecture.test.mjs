// The dependency rules refuse what they are written to refuse: each case lays out a small tree of
// the repository's shape in a temporary folder, with one violation, and runs the real checker with
// the repository's own configuration on it.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const depcruise = join(root, 'node_modules', '.bin', 'depcruise');

/** Runs the checker on a tree of `files` (path -> text); its exit code and output. */
async function check(files) {
  const tree = mkdtempSync(join(tmpdir(), 'quotes-architecture-'));
  try {
    mkdirSync(join(tree, 'scripts'));
    cpSync(join(root, '.dependency-cruiser.cjs'), join(tree, '.dependency-cruiser.cjs'));
    cpSync(join(root, 'tsconfig.base.json'), join(tree, 'tsconfig.base.json'));
    cpSync(join(root, 'scripts', 'packageArrows.cjs'), join(tree, 'scripts', 'packageArrows.cjs'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), text);
    }
    // Workspace packages resolve through node_modules/@quotes, as npm links them.
    mkdirSync(join(tree, 'node_modules', '@quotes'), { recursive: true });
    for (const name of ['accounts', 'server']) {
      const folder = join(tree, 'packages', name);
      mkdirSync(join(folder, 'dist'), { recursive: true });
      writeFileSync(join(folder, 'dist', 'index.d.ts'), 'export declare const x: number;\n');
      writeFileSync(
        join(folder, 'package.json'),
        JSON.stringify({ name: `@quotes/${name}`, type: 'module', exports: { '.': { types: './dist/index.d.ts' } } }),
      );
      symlinkSync(folder, join(tree, 'node_modules', '@quotes', name));
    }
    try {
      const { stdout } = await promisify(execFile)(depcruise, ['packages', '--config', '.dependency-cruiser.cjs'], {
        cwd: tree,
      });
      return { code: 0, output: stdout };
    } catch (error) {
      return { code: error.code, output: `${error.stdout}${error.stderr}` };
    }
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

const fine = {
  'packages/accounts/src/domain/plans.ts': 'export const plans = 1;\n',
  'packages/server/src/http/app.ts': "import { x } from '@quotes/accounts';\nexport const app = x;\n",
};

test('a tree that keeps the rules passes', async () => {
  const { code, output } = await check(fine);
  assert.equal(code, 0, output);
});

test("reaching into another package's src fails", async () => {
  const { code, output } = await check({
    ...fine,
    'packages/server/src/http/app.ts':
      "import { plans } from '../../../accounts/src/domain/plans.js';\nexport const app = plans;\n",
  });
  assert.notEqual(code, 0);
  assert.match(output, /no-reach-into-another-package/);
});

test('a package below importing an audience above it fails', async () => {
  const { code, output } = await check({
    ...fine,
    'packages/accounts/src/domain/plans.ts': "import { x } from '@quotes/server';\nexport const plans = x;\n",
  });
  assert.notEqual(code, 0);
  assert.match(output, /accounts-imports-only-its-arrows/);
});

test('a layer importing upward inside a package fails', async () => {
  const { code, output } = await check({
    ...fine,
    'packages/server/src/http/app.ts': 'export const app = 1;\n',
    'packages/server/src/data/quotes.ts': "import { app } from '../http/app.js';\nexport const quotes = app;\n",
  });
  assert.notEqual(code, 0);
  assert.match(output, /server-data-imports-downward/);
});

test('a cycle fails', async () => {
  const { code, output } = await check({
    ...fine,
    'packages/server/src/data/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
    'packages/server/src/data/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
  });
  assert.notEqual(code, 0);
  assert.match(output, /no-circular/);
});

test("the README's package diagram is the checker's arrows", async () => {
  const { diagram, readmeDiagram } = await import('./packageDiagram.mjs');
  assert.equal(readmeDiagram(), diagram(), 'run node scripts/packageDiagram.mjs --write');
});
