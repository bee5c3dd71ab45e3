import { once } from 'node:events';
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@quotes/database';
import { afterAll, describe, expect, it } from 'vitest';
import { captureAnswers, writeAnswers } from '../src/answerCapture.js';
import type { CostWindow } from '../src/callCosts.js';
import { startNodeProcess } from '../src/childProcess.js';
import { duetCores, pairSlices } from '../src/duetRun.js';
import { floorShare } from '../src/roundSummary.js';

// The built module: its load generators are the built load worker (dist/loadWorker.js), each in a process of its own.
const { runDuet, runDuetOnFreshPairs } = (await import(
  new URL('../dist/duetRun.js', import.meta.url).href
)) as typeof import('../src/duetRun.js');

const floorScript = fileURLToPath(new URL('../dist/floorApp.js', import.meta.url));

/** The cores a process may run on, as the kernel lists them (`0-1`, `1`). */
async function allowedCores(pid: number): Promise<string> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return /^Cpus_allowed_list:\s*(\S+)$/m.exec(status)?.[1] ?? '';
}

/** The CPU group (cgroup v1's cpu controller) a process is in: `/` for none of the bench's. */
async function cpuGroup(pid: number): Promise<string> {
  const groups = await readFile(`/proc/${pid}/cgroup`, 'utf8');
  return /^\d+:cpu(?:,cpuacct)?:(\S+)$/m.exec(groups)?.[1] ?? '';
}

describe('pairing a duet', () => {
  it("pairs each second's answers of both sides, leaving out a second either side answered nothing in", () => {
    expect(pairSlices([300, 310, 0, 290, 305], [500, 505, 498, 0])).toEqual([
      { server: 300, floor: 500 },
      { server: 310, floor: 505 },
    ]);
    expect(pairSlices(undefined, [1])).toEqual([]);
  });

  it('puts the server on the first core, then swaps the sides every round', () => {
    expect([0, 1, 2, 3].map((round) => duetCores([0, 1], round))).toEqual([
      { server: 0, floor: 1 },
      { server: 1, floor: 0 },
      { server: 0, floor: 1 },
      { server: 1, floor: 0 },
    ]);
  });

  it("reads the ratio as the server's answers over the floor's in the paired seconds, not of the runs' rates", () => {
    // Runs of 1,000 and 1,800 calls/s (0.56), but in the seconds both measured 2,000 against 3,000 answers.
    const load = (requestsPerSecond: number) => ({
      requestsPerSecond,
      latencyP50Ms: 1,
      latencyP99Ms: 2,
      requests: requestsPerSecond,
      errors: 0,
    });
    const slices = [
      { server: 500, floor: 1000 },
      { server: 600, floor: 1000 },
      { server: 900, floor: 1000 },
    ];
    expect(floorShare({ server: load(1000), floor: load(1800), slices })).toEqual({
      median: 2000 / 3000,
      min: 0.5,
      max: 0.9,
      count: 3,
    });
  });
});

/** Two same-bytes floors of one answer, each in its own process: the two sides of a real duet. */
const origin = createServer((_request, response) => {
  response.setHeader('Content-Type', 'application/json');
  response.end('{"text":"A quote."}');
});
origin.listen(0, '127.0.0.1');
await once(origin, 'listening');
const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of stops) await stop();
  await new Promise<void>((resolve) => origin.close(() => resolve()));
});

async function startSide(answers: string) {
  const port = await freePort();
  const side = await startNodeProcess(
    floorScript,
    [],
    { PORT: String(port), CAPTURED_ANSWERS: answers },
    async () => (await fetch(`http://127.0.0.1:${port}/v1/quotes-random`)).ok,
  );
  stops.push(() => side.stop());
  return { base: `http://127.0.0.1:${port}`, pid: side.pid };
}

/** Each side's load in these duets: two connections for 2 s after 1 s of warm-up. */
const load = (base: string) => ({
  origin: base,
  paths: ['/v1/quotes-random'],
  connections: 2,
  durationSeconds: 2,
  warmupSeconds: 1,
});

describe.runIf(availableParallelism() >= 2)('a duet of two processes', () => {
  it('measures both sides at the same moment, each on its own core, swapped each round, and gives every core back', async () => {
    const answers = join(await mkdtemp(join(tmpdir(), 'quotes-bench-duet-')), 'answers.json');
    const url = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    await writeAnswers(answers, await captureAnswers(url, ['/v1/quotes-random'], {}));
    const [a, b] = [await startSide(answers), await startSide(answers)];
    const events: string[] = [];
    const groups: string[] = [];
    // At each window's opening (the warm-ups over, the measured runs not started): where each side runs.
    const meter = {
      window: (pids: { servers: readonly number[] }): CostWindow => ({
        open: async () => {
          const pid = pids.servers[0] as number;
          const side = pid === a.pid ? 'server' : 'floor';
          events.push(`open ${side} on ${await allowedCores(pid)}`);
          const group = await cpuGroup(pid);
          groups.push(
            group === '/' ? '/' : /^\/quotes-bench-\d+-(server|floor)$/.exec(group)?.[1] === side ? 'its own' : group,
          );
        },
        close: async () => {
          events.push(`close ${pids.servers[0] === a.pid ? 'server' : 'floor'}`);
        },
        costs: async () => null,
      }),
    };
    const measured = await runDuet({
      server: { name: 'server', pids: { servers: [a.pid] }, load: load(a.base) },
      floor: { name: 'floor', pids: { servers: [b.pid] }, load: load(b.base) },
      rounds: 2,
      cores: [0, 1],
      coldFirst: true,
      meter,
      label: 'duet',
      log: () => {},
    });
    // A cold round and two rounds; in each, both windows open before either closes (one moment for both).
    const rounds = [0, 4, 8].map((start) => [
      ...events.slice(start, start + 2).sort(),
      ...events.slice(start + 2, start + 4).map((event) => event.replace(/ .*$/, '')),
    ]);
    expect(events).toHaveLength(12);
    expect(rounds).toEqual([
      ['open floor on 1', 'open server on 0', 'close', 'close'],
      ['open floor on 0', 'open server on 1', 'close', 'close'],
      ['open floor on 1', 'open server on 0', 'close', 'close'],
    ]);
    expect(measured.rounds).toHaveLength(2);
    expect(measured.coldRound?.slices).toHaveLength(2);
    // Two seconds a round, both sides answering in each: four pairs, the ratio of their sums.
    expect(measured.slices).toHaveLength(4);
    expect(floorShare(measured)?.count).toBe(4);
    const all = `0-${availableParallelism() - 1}`;
    expect([await allowedCores(a.pid), await allowedCores(b.pid)]).toEqual([all, all]);
    // Where the machine has cgroup v1's cpu controller (this one does), each side in a group of its own, and out again after.
    if (groups[0] !== '/') {
      expect(groups).toEqual(new Array(6).fill('its own'));
      expect([await cpuGroup(a.pid), await cpuGroup(b.pid)]).toEqual(['/', '/']);
    }
  }, 60_000);

  it('measures each round on a fresh pair, stopped after its round, the cores swapped from pair to pair', async () => {
    const answers = join(await mkdtemp(join(tmpdir(), 'quotes-bench-pairs-')), 'answers.json');
    const url = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    await writeAnswers(answers, await captureAnswers(url, ['/v1/quotes-random'], {}));
    const events: string[] = [];
    const pairs: Array<{ server: number; floor: number; stopped: boolean }> = [];
    const meter = {
      window: (pids: { servers: readonly number[] }): CostWindow => ({
        open: async () => {
          const pid = pids.servers[0] as number;
          const pair = pairs[pairs.length - 1];
          events.push(`${pid === pair?.server ? 'server' : 'floor'} on ${await allowedCores(pid)}`);
        },
        close: async () => {},
        costs: async () => null,
      }),
    };
    const measured = await runDuetOnFreshPairs(
      { rounds: 2, cores: [0, 1], meter, label: 'pairs', log: () => {} },
      async () => {
        const [a, b] = [await startSide(answers), await startSide(answers)];
        const pair = { server: a.pid, floor: b.pid, stopped: false };
        pairs.push(pair);
        return {
          server: { name: 'server', pids: { servers: [a.pid] }, load: load(a.base) },
          floor: { name: 'floor', pids: { servers: [b.pid] }, load: load(b.base) },
          stop: async () => {
            for (const pid of [a.pid, b.pid]) process.kill(pid, 'SIGTERM');
            pair.stopped = true;
          },
        };
      },
    );
    expect(pairs).toHaveLength(2);
    expect(new Set(pairs.flatMap((pair) => [pair.server, pair.floor])).size).toBe(4);
    expect(pairs.map((pair) => pair.stopped)).toEqual([true, true]);
    expect([events.slice(0, 2).sort(), events.slice(2, 4).sort()]).toEqual([
      ['floor on 1', 'server on 0'],
      ['floor on 0', 'server on 1'],
    ]);
    expect(measured.rounds).toHaveLength(2);
    expect(measured.floorRuns).toHaveLength(2);
    expect(measured.slices).toHaveLength(4);
    expect(floorShare(measured)?.count).toBe(4);
  }, 60_000);
});
