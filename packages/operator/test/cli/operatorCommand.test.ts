import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';

// The operator command exactly as the root README writes it, from a real shell at the checkout's
// root: the workspace bin, which brings the build up to date first (silently when nothing changed).
const checkoutRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const launcher = fileURLToPath(new URL('../../bin/quotes-admin.js', import.meta.url));

let database: TestDatabase;
let directory: string;
beforeAll(async () => {
  [database, directory] = await Promise.all([createTestDatabase(), mkdtemp(join(tmpdir(), 'quotes-admin-shell-'))]);
});
afterAll(async () => {
  await database?.drop();
  if (directory) await rm(directory, { recursive: true, force: true });
});

interface ShellRun {
  code: number;
  stdout: string;
  stderr: string;
}

function shell(command: string, cwd = checkoutRoot): Promise<ShellRun> {
  return new Promise((resolve) => {
    execFile(
      '/bin/sh',
      ['-c', command],
      { cwd, env: { ...process.env, DATABASE_URL: database.url, OUT: directory }, timeout: 240_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npx quotes-admin, as the README shows it', { timeout: 300_000 }, () => {
  it('redirected to a file, writes only the answer: CSV from its header on, JSON that parses', async () => {
    const created = await shell('npx quotes-admin keys create --client "Shell Co" --plan starter --json');
    expect(created.code, created.stderr).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: string };

    const csv = await shell('npx quotes-admin usage report --csv > "$OUT/billing.csv"');
    expect(csv.code, csv.stderr).toBe(0);
    // Nothing on the terminal either: no build banner when nothing changed.
    expect(csv.stderr).toBe('');
    const billing = await readFile(join(directory, 'billing.csv'), 'utf8');
    expect(billing.split('\n')[0]).toBe('month,key_id,key_prefix,client,email,plan,state,calls,allowance,percent_used');
    expect(parse(billing, { columns: true })).toEqual([expect.objectContaining({ key_id: id, state: 'active' })]);

    const list = await shell('npx quotes-admin keys list --json > "$OUT/list.json"');
    expect(list.code, list.stderr).toBe(0);
    const keys = JSON.parse(await readFile(join(directory, 'list.json'), 'utf8')) as { id: string }[];
    expect(keys.map((key) => key.id)).toEqual([id]);

    const refused = await shell('npx quotes-admin keys create --client X --plan gold > "$OUT/none.json"');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^quotes-admin: --plan must be one of [a-z, ]+; got 'gold'\n$/);
  });

  it('outside a checkout and not built: one line saying so', async () => {
    // The launcher alone, in a package folder with no dist/ and no turbo above it.
    const bin = join(directory, 'lonely', 'server', 'bin');
    await mkdir(bin, { recursive: true });
    await copyFile(launcher, join(bin, 'quotes-admin.js'));
    const run = await shell(`node ${join(bin, 'quotes-admin.js')} keys list`, directory);
    expect(run).toEqual({ code: 1, stdout: '', stderr: 'quotes-admin: not built: run npm run build first\n' });
  });
});
