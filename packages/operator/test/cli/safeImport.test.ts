import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminCli, buildAdminCli, expectOneLineError } from '../support/adminProcess.js';
import { loadFixtureCorpus } from '@quotes/server/testing';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';

// `corpus import` as an operator runs it (its own process, no terminal): no destructive default.
let cli: AdminCli;
let database: TestDatabase;
let directory: string;
let tenRows: string;

beforeAll(async () => {
  [cli, database, directory] = await Promise.all([
    buildAdminCli(),
    createTestDatabase(),
    mkdtemp(join(tmpdir(), 'safe-import-')),
  ]);
  await loadFixtureCorpus(database);
  tenRows = join(directory, 'ten.csv');
  await writeFile(
    tenRows,
    [
      'text,author,tags',
      ...Array.from(
        { length: 10 },
        (_, i) => `"Quote number ${i} keeps its own, quiet counsel.",Author ${i},"grief, hope"`,
      ),
    ].join('\n'),
  );
});
afterAll(async () => {
  await database?.drop();
  if (directory) await rm(directory, { recursive: true, force: true });
});

const admin = (...args: string[]) => cli.run({ DATABASE_URL: database.url }, ...args);
const importTen = (...args: string[]) => admin('corpus', 'import', tenRows, '--default-era', 'Present', ...args);

async function corpusSize(): Promise<number> {
  const row = await database.db
    .selectFrom('quotes')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

describe('a 10-row import cannot silently wipe the corpus', { timeout: 90_000 }, () => {
  it('refuses to run without --mode, then shows, refuses, appends and replaces only as told', async () => {
    const before = await corpusSize();
    expect(before).toBeGreaterThan(20);

    expectOneLineError(await importTen(), /--mode/);
    expect(await corpusSize()).toBe(before);

    const dry = await importTen('--mode', 'replace', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/would be added +10\n/);
    expect(dry.stdout).toMatch(/would be replaced +0\n/);
    expect(dry.stdout).toMatch(
      new RegExp(`would be removed +${before.toLocaleString('en-US')} \\(100% of the corpus\\)`),
    );
    expect(dry.stdout).toMatch(/corpus would be 10 quotes/);
    expect(await corpusSize()).toBe(before);

    // No terminal to ask on, and no --yes: refused in one line, nothing changed.
    const refused = await importTen('--mode', 'replace');
    expectOneLineError(refused, /refused: this replace would remove .* quotes \(100%\) and leave 10; .*--yes/);
    expect(await corpusSize()).toBe(before);

    const appended = await importTen('--mode', 'append');
    expect(appended.code, appended.stderr).toBe(0);
    expect(await corpusSize()).toBe(before + 10);
    const dryAppend = await importTen('--mode', 'append', '--dry-run');
    expect(dryAppend.stdout).toMatch(/would be added +0\n/);
    expect(dryAppend.stdout).toMatch(/already loaded +10 \(kept as they are\)\n/);
    expect(dryAppend.stdout).toMatch(/would be removed +0\n/);

    const replaced = await importTen('--mode', 'replace', '--yes');
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(await corpusSize()).toBe(10);

    // Removing less than half needs no confirmation: the same ten again replace themselves.
    const again = await importTen('--mode', 'replace');
    expect(again.code, again.stderr).toBe(0);
    expect(await corpusSize()).toBe(10);
  });
});

describe('what an import prints', { timeout: 90_000 }, () => {
  it('escapes text from outside: a file name cannot forge a line or drive the terminal', async () => {
    const file = join(directory, 'quotes\u001b[2J\nforged.jsonl');
    await writeFile(
      file,
      `${JSON.stringify({ text: 'A quiet line of counsel.', author: 'Someone', tags: ['grief'] })}\n`,
    );
    const run = await admin('corpus', 'import', file, '--mode', 'append', '--default-era', 'Present');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('quotes\\e[2J\\nforged.jsonl');
    expect(run.stdout).not.toContain('\u001b');
    const stats = await admin('corpus', 'stats');
    expect(stats.stdout).toContain('import quotes\\e[2J\\nforged.jsonl');
    expect(stats.stdout.split('\n').some((line) => line.startsWith('forged'))).toBe(false);
  });
});

// util-linux's script(1) gives the CLI a real terminal, so the confirmation prompt is what runs.
// CI installs it (.ci/run): there a missing script(1) fails this test instead of skipping it.
const hasScript = spawnSync('script', ['--version']).status === 0 || process.env.CI === 'true';

function onTerminal(answer: string, ...args: string[]): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, cli.entry, 'corpus', 'import', tenRows, '--default-era', 'Present', ...args]
    .map((part) => `'${part.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...process.env, DATABASE_URL: database.url },
    });
    let output = '';
    let answered = false;
    // The child may be gone by the time the answer is written: that is its exit, not an error here.
    child.stdin.on('error', () => undefined);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no exit within 30 s: ${output}`));
    }, 30_000);
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
      if (!answered && output.includes('Type "replace" to go on')) {
        answered = true;
        child.stdin.write(`${answer}\n`);
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe.skipIf(!hasScript)(
  'on a terminal, a large replace asks first (skipped without script(1) to make one)',
  {
    timeout: 90_000,
  },
  () => {
    it('goes ahead only on "replace"', async () => {
      await loadFixtureCorpus(database);
      const before = await corpusSize();
      const declined = await onTerminal('no', '--mode', 'replace');
      expect(declined.output).toMatch(/this replace would remove .* quotes \(100%\) and leave 10\./);
      expect(declined.output).toContain('not confirmed: the corpus is unchanged');
      expect(declined.code).not.toBe(0);
      expect(await corpusSize()).toBe(before);
      const confirmed = await onTerminal('replace', '--mode', 'replace');
      expect(confirmed.code, confirmed.output).toBe(0);
      expect(await corpusSize()).toBe(10);
    });
  },
);
