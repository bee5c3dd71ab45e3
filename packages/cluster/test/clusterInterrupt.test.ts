import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from 'node:http';
import { freePort, openDatabase, withDatabase } from '@quotes/database';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '@quotes/service-base';
import { createOperatorApi } from '@quotes/accounts';
import { get } from '@quotes/server/testing';
import { clusterSkipReason } from './support/testCluster.js';
import { type ProcessEntry, processTree, stillRunning } from './processTable.js';

/**
 * `npm run cluster` stopped as a terminal's Ctrl-C stops it: SIGINT to its whole process group,
 * so npm (which passes a SIGINT of its own on) and the cluster each get one, under a load through
 * HAProxy. Everything it started must be gone afterwards, no process and no port, and every call
 * answered 200 counted (the servers write their last counts before PostgreSQL stops).
 */
const skipReason = clusterSkipReason('the Ctrl-C test of npm run cluster');
const checkout = fileURLToPath(new URL('../../../', import.meta.url));

/** Building the server first (turbo, cached when built) and starting everything, on a loaded machine. */
const startWithinMs = 240_000;
/** The cluster's own deadline for its stop is SHUTDOWN_GRACE_MS (10 s) + 20 s. */
const stopWithinMs = 40_000;
/** A process still exiting once npm has (a PostgreSQL backend) gets this long. */
const goneWithinMs = 5000;
/** Clients calling quotes-random through HAProxy while the Ctrl-C comes. */
const clients = 4;

let started: ChildProcess | undefined;
let seen: ProcessEntry[] = [];
let dataDir: string | undefined;

afterAll(async () => {
  // Whatever the test found left behind goes, so a failure here leaves nothing on the machine.
  for (const entry of started?.pid ? stillRunning(seen, started.pid) : []) {
    try {
      process.kill(entry.pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 30_000);

async function portIsFree(port: number): Promise<boolean> {
  const server = createServer();
  try {
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    return true;
  } catch {
    return false;
  } finally {
    server.close();
  }
}

/**
 * A block of `count` consecutive ports free now, below the kernel's ephemeral range (from 32768),
 * since the cluster gives its servers the ports after `--server-port` and `--metrics-port`: in that
 * range another test's outgoing connections took a neighbour between the check and the start.
 */
async function freeBlock(count: number, taken: readonly number[]): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const base = 20_000 + Math.floor(Math.random() * (32_768 - 20_000 - count));
    const block = Array.from({ length: count }, (_, index) => base + index);
    if (block.some((each) => taken.includes(each))) continue;
    if ((await Promise.all(block.map(portIsFree))).every(Boolean)) return base;
  }
  throw new Error('no block of free ports below 32768');
}

async function until(done: () => boolean, withinMs: number, what: () => string): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`not within ${withinMs / 1000} s: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(skipReason !== undefined)('npm run cluster, stopped by a Ctrl-C', () => {
  it('stops everything it started on one SIGINT to its process group, leaving no process and no port', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'quotes-cluster-interrupt-'));
    const [port, statsPort, pgBouncerPort, postgresPort] = await Promise.all(
      Array.from({ length: 4 }, () => freePort()),
    );
    const serverBase = await freeBlock(3, []);
    const metricsBase = await freeBlock(3, [serverBase, serverBase + 1, serverBase + 2]);
    const serverPorts = [0, 1, 2].flatMap((index) => [serverBase + index, metricsBase + index]);
    const ports = { port, statsPort, pgBouncerPort, postgresPort, serverPorts };
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(postgresPort),
      CORPUS_SIZE: '2000',
      LOG_LEVEL: 'warn',
    };
    // Its own embedded PostgreSQL under DATA_DIR, whatever the test run was given.
    delete env.DATABASE_URL;
    delete env.DATABASE_LISTEN_URL;
    // As at a terminal: `setsid npm run cluster -- ...` leads a process group of its own.
    started = spawn(
      'setsid',
      [
        'npm',
        'run',
        'cluster',
        '--',
        `--port=${port}`,
        `--stats-port=${statsPort}`,
        `--pgbouncer-port=${pgBouncerPort}`,
        `--server-port=${serverBase}`,
        `--metrics-port=${metricsBase}`,
      ],
      { cwd: checkout, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const group = started.pid!;
    let output = '';
    started.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    started.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = once(started, 'exit');
    await until(
      () => output.includes('Ctrl-C stops everything') || started?.exitCode !== null,
      startWithinMs,
      () => output.slice(-2000),
    );
    expect(started.exitCode, output.slice(-2000)).toBeNull();
    seen = processTree(group);
    // npm, npm again (the workspace's script), the cluster and its copy in a group of its own,
    // PostgreSQL, PgBouncer, three servers, HAProxy.
    expect(seen.filter((entry) => /\bdist\/main\.js$/.test(entry.command))).toHaveLength(3);
    expect(seen.filter((entry) => /\/haproxy /.test(entry.command))).toHaveLength(1);
    expect(seen.filter((entry) => /\/pgbouncer /.test(entry.command))).toHaveLength(1);

    const config = parseConfig({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(postgresPort) });
    // Joins the cluster's PostgreSQL (started by npm run cluster) for a key of its own.
    const issued = await withDatabase(
      () => openDatabase(config, { poolSize: 1 }),
      (database) =>
        createOperatorApi(database).createKey({ client: 'Ctrl-C', plan: 'enterprise', monthlyCalls: 10_000_000 }),
    );
    const agent = new Agent({ keepAlive: true, maxSockets: clients });
    const tally = { ok: 0, other: 0 };
    const loadDeadline = performance.now() + stopWithinMs + 10_000;
    // Each client calls until HAProxy no longer answers (it stops first).
    const load = Array.from({ length: clients }, async () => {
      while (performance.now() < loadDeadline) {
        const answer = await get(
          `http://127.0.0.1:${port}/v1/quotes-random`,
          { 'X-API-Key': issued.key },
          { agent, timeoutMs: 10_000 },
        ).catch(() => undefined);
        if (answer === undefined) return;
        if (answer.status === 200) tally.ok++;
        else tally.other++;
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const signalledAt = performance.now();
    process.kill(-group, 'SIGINT');
    await Promise.race([
      exited,
      new Promise((_, reject) =>
        setTimeout(
          () => reject(new Error(`npm run cluster still running after ${stopWithinMs / 1000} s`)),
          stopWithinMs,
        ),
      ),
    ]);
    const stoppedMs = performance.now() - signalledAt;
    await Promise.all(load);
    agent.destroy();
    await until(
      () => stillRunning(seen, group).length === 0,
      goneWithinMs,
      () => `left running: ${JSON.stringify(stillRunning(seen, group))}`,
    );
    const clusterSaid = output.slice(output.indexOf('SIGINT'));
    // PostgreSQL started again on its files: what the servers wrote before it stopped.
    const counted = await withDatabase(
      () => openDatabase(config, { poolSize: 1 }),
      async (database) => (await createOperatorApi(database).usage(issued.id)).calls,
    );
    console.info(
      `one Ctrl-C under load: npm run cluster stopped in ${Math.round(stoppedMs)} ms; ${tally.ok} calls answered 200 ` +
        `(${tally.other} otherwise), ${counted} counted; it said: ${clusterSaid.trim()}`,
    );
    expect(tally.ok).toBeGreaterThan(0);
    expect(counted).toBe(tally.ok);
    expect(clusterSaid).toMatch(/^SIGINT: stopping HAProxy, the servers/);
    // Once: the SIGINTs of the terminal and of npm are one request.
    expect(clusterSaid.match(/SIGINT/g)).toHaveLength(1);
    expect(clusterSaid).toMatch(/^stopped$/m);
    expect(clusterSaid).not.toMatch(/again|SIGKILL|deadline/);
    const taken: number[] = [];
    for (const each of [port, statsPort, pgBouncerPort, postgresPort, ...serverPorts] as number[])
      if (!(await portIsFree(each))) taken.push(each);
    expect(taken, JSON.stringify(ports)).toEqual([]);
  }, 300_000);
});
