import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { contractPath as defaultContractPath } from '@quotes/contract';
import type { DreddFixture, HooksReport, RecordedTransaction, TransactionShape } from './fixture.js';

const require = createRequire(import.meta.url);

/** The hooks file ships beside src/ and dist/ at the same depth, so this resolves from both. */
export const defaultHookfile: string = fileURLToPath(new URL('../../hooks/dreddHooks.cjs', import.meta.url));

/** Takes the target's database away and gives it back; `end` resolves once the target answers again. */
export interface OutageControl {
  start(): Promise<void>;
  end(): Promise<void>;
}

export interface DreddRunOptions {
  readonly baseUrl: string;
  readonly transactions: Readonly<Record<string, TransactionShape>>;
  readonly outage?: OutageControl;
  readonly contractPath?: string;
  readonly hookfile?: string;
  readonly timeoutMs?: number;
}

export interface DreddStats {
  readonly passes: number;
  readonly failures: number;
  readonly errors: number;
  readonly skipped: number;
  readonly total: number;
}

export interface DreddRun {
  readonly exitCode: number | null;
  readonly stats: DreddStats | null;
  /** Dredd's own output, colours stripped. */
  readonly output: string;
  /** null when the hooks never loaded. */
  readonly hooks: HooksReport | null;
  readonly records: readonly RecordedTransaction[];
  readonly durationMs: number;
  /** Time the target took to answer again after each outage ended. */
  readonly recoveries: readonly number[];
}

function dreddBin(): string {
  const manifest = require.resolve('dredd/package.json');
  return join(dirname(manifest), 'bin', 'dredd');
}

export function parseDreddStats(output: string): DreddStats | null {
  const match = /complete: (\d+) passing, (\d+) failing, (\d+) errors, (\d+) skipped, (\d+) total/.exec(output);
  if (!match) return null;
  const [passes, failures, errors, skipped, total] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  return { passes, failures, errors, skipped, total };
}

/** The endpoint the hooks call to take the database down for a 503 transaction and back up after. */
async function startControlServer(
  outage: OutageControl,
  recoveries: number[],
): Promise<{ url: string; close(): Promise<void> }> {
  let down = false;
  const server: Server = createServer((request, response) => {
    const action = request.method === 'POST' ? /^\/outage\/(start|end)$/.exec(request.url ?? '')?.[1] : undefined;
    if (!action) {
      response.writeHead(404).end();
      return;
    }
    const run = async () => {
      if (action === 'start' && !down) {
        await outage.start();
        down = true;
      } else if (action === 'end' && down) {
        const started = Date.now();
        await outage.end();
        down = false;
        recoveries.push(Date.now() - started);
      }
    };
    run().then(
      () => response.writeHead(204).end(),
      (error: unknown) => response.writeHead(500).end(error instanceof Error ? error.message : String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('control server has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: async () => {
      // Never leave the target without its database, whatever happened in between.
      if (down) await outage.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Runs the real `dredd` binary over the contract against `baseUrl`, with the hooks and the fixture. */
export async function runDredd(options: DreddRunOptions): Promise<DreddRun> {
  const workDir = await mkdtemp(join(tmpdir(), 'quotes-dredd-'));
  const recoveries: number[] = [];
  const control = options.outage ? await startControlServer(options.outage, recoveries) : undefined;
  const started = Date.now();
  try {
    const fixture: DreddFixture = {
      transactions: options.transactions,
      recordPath: join(workDir, 'transactions.jsonl'),
      reportPath: join(workDir, 'hooks-report.json'),
      controlUrl: control?.url,
    };
    const fixturePath = join(workDir, 'fixture.json');
    // Keys are in this file: readable by this user only, and deleted with workDir.
    await writeFile(fixturePath, JSON.stringify(fixture), { mode: 0o600 });
    const args = [
      dreddBin(),
      options.contractPath ?? defaultContractPath,
      options.baseUrl,
      `--hookfiles=${options.hookfile ?? defaultHookfile}`,
      '--language=nodejs',
      '--color=false',
      '--loglevel=warning',
    ];
    const { exitCode, output } = await new Promise<{ exitCode: number | null; output: string }>((resolve, reject) => {
      // cwd: an empty directory, so no stray dredd.yml changes the run.
      const child = spawn(process.execPath, args, {
        cwd: workDir,
        env: { ...process.env, QUOTES_DREDD_FIXTURE: fixturePath, NO_COLOR: '1', FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const chunks: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
      const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
      child.once('error', reject);
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ exitCode: code, output: stripVTControlCharacters(Buffer.concat(chunks).toString('utf8')) });
      });
    });
    const hooks = existsSync(fixture.reportPath)
      ? (JSON.parse(await readFile(fixture.reportPath, 'utf8')) as HooksReport)
      : null;
    const records = existsSync(fixture.recordPath)
      ? (await readFile(fixture.recordPath, 'utf8'))
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as RecordedTransaction)
      : [];
    return {
      exitCode,
      stats: parseDreddStats(output),
      output,
      hooks,
      records,
      durationMs: Date.now() - started,
      recoveries,
    };
  } finally {
    await control?.close();
    await rm(workDir, { recursive: true, force: true });
  }
}
