import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startThrowawayServer, type ThrowawayServer } from '@quotes/server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from './support/packedTarballs.js';

// The client's README followed to the letter by someone with a trial key: an empty folder,
// `npm init -y`, the README's commands (its `npm install @quotes/client` given the packed
// tarball), its example saved under the name its command runs, and that command run against a
// real server. Only the service's address (QUOTES_URL, which the example reads) and the key differ.
const run = promisify(execFile);
const repository = fileURLToPath(new URL('../../..', import.meta.url));
const readmeFile = join(repository, 'packages/client/README.md');

let folder: string;
let tarball: string;
let service: ThrowawayServer;

interface Block {
  language: string;
  text: string;
}

/** The README's fenced blocks in order, up to its first section (the part a newcomer follows). */
async function firstSteps(): Promise<Block[]> {
  const readme = await readFile(readmeFile, 'utf8');
  const top = readme.slice(0, readme.indexOf('\n## '));
  return [...top.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, language, text]) => ({
    language: language!,
    text: text!,
  }));
}

async function inFolder(
  command: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('sh', ['-c', command], {
      cwd: folder,
      env: { ...process.env, ...env },
      timeout: 120_000,
      maxBuffer: 16 << 20,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    };
  }
}

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'quotes-readme-'));
  folder = join(root, 'project');
  await mkdir(folder);
  tarball = inject('packedTarballs')['@quotes/client'];
  service = await startThrowawayServer({ corpusSize: 3000, corpusSeed: 7, logLevel: 'silent' });
}, 300_000);

afterAll(async () => {
  await service?.close();
  if (folder) await rm(join(folder, '..'), { recursive: true, force: true });
});

describe("the client's README, as written, in a fresh npm init -y folder", () => {
  it('runs with a trial key, as .ts and as .js', async () => {
    const init = await inFolder('npm init -y');
    expect(init.code).toBe(0);
    const blocks = await firstSteps();
    const [setup, runBlock, ...rest] = blocks.filter((block) => block.language === 'sh');
    const program = blocks.find((block) => block.language === 'ts');
    // Set-up commands, the example, and the command that runs it: nothing else to follow.
    expect([setup, program, runBlock].map((block) => block !== undefined)).toEqual([true, true, true]);
    expect(rest).toEqual([]);

    for (const line of setup!.text.trim().split('\n')) {
      const result = await inFolder(
        line.replace(/^npm install @quotes\/client$/, `npm install --no-audit --no-fund ${tarball}`),
      );
      expect(result.code, `${line}\n${result.stderr}`).toBe(0);
    }
    // The command, without the placeholder key it sets: `QUOTES_KEY=qk_your_key node quotes.ts`.
    const command = runBlock!.text.trim();
    const assignments = command.match(/^(?:\w+=\S+\s+)*/)![0];
    expect(assignments.trim()).toBe('QUOTES_KEY=qk_your_key');
    const [program_, file] = command.slice(assignments.length).split(/\s+/);
    expect(program_).toBe('node');
    expect(file).toMatch(/^\w+\.ts$/);

    const key = (await service.server.operator.createKey({ client: 'README reader', plan: 'trial' })).key;
    for (const name of [file!, file!.replace(/\.ts$/, '.js')]) {
      await writeFile(join(folder, name), program!.text);
      const result = await inFolder(`node ${name}`, { QUOTES_KEY: key, QUOTES_URL: service.server.url });
      expect(result.stderr, name).toBe('');
      expect(result.code, name).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      // A quote and its author, the cut page told, 3 pages of 10 quotes, and where the budget stopped.
      expect(lines[0], name).toMatch(/^.+ \(.+\)$/);
      expect(
        lines.filter((text) => text.startsWith('{')),
        name,
      ).toEqual([
        "{ type: 'page-size-cut', asked: 50, given: 10 }",
        "{ type: 'budget-spent', calls: 3, nextOffset: 30 }",
      ]);
      expect(lines).toHaveLength(1 + 1 + 30 + 1);
    }
    // Each run cost 4 calls of the trial's 1,000: one quote and three pages.
    const usage = await fetch(`${service.server.url}/v1/quotes-usage`, { headers: { 'X-API-Key': key } });
    expect(((await usage.json()) as { calls_in_period: number }).calls_in_period).toBe(8);
  });
});
