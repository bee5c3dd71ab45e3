import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { seededRandom } from '@quotes/corpus';
import { UsageHistory } from '@quotes/server/usage-history';
import type pg from 'pg';
import type { HistoryMemoryConfig, HistoryMemoryResult } from './historyMemory.js';
import { percentile } from './latencySample.js';

/** One history memory measurement (historyMemory.ts), in a process of its own started with --expose-gc. */
const collect = globalThis.gc;

/** A pool that never answers: the measurement ends before a flush, and none is written. */
const idlePool = { query: () => new Promise(() => undefined) } as unknown as pg.Pool;

const now = Date.UTC(2026, 10, 26, 10, 30);
const callsPerOrdinaryKey = 20;

/** Readings this close are taken as settled. */
const settledWithinBytes = 64 * 1024;

/** The JS heap and the ArrayBuffers outside it (the coverage bitsets' bytes live there). */
function heldBytes(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/**
 * What is held once collected, read when two readings a moment apart agree: ArrayBuffers are
 * freed after a collection, off the main thread, and code not run lately is dropped over several.
 */
async function settledBytes(gc: () => void): Promise<number> {
  let previous = Number.NaN;
  for (let reading = 0; reading < 20; reading++) {
    gc();
    await sleep(10);
    gc();
    const bytes = heldBytes();
    if (Math.abs(bytes - previous) <= settledWithinBytes) return bytes;
    previous = bytes;
  }
  return previous;
}

interface Held {
  measured: number;
  estimated: number;
}

/** What a recorder without a byte budget holds after `fill`, measured and as it estimates. */
async function held(gc: () => void, fill: (history: UsageHistory) => void): Promise<Held> {
  const before = await settledBytes(gc);
  const history = new UsageHistory(idlePool, 3_600_000, { maxBytes: Number.POSITIVE_INFINITY });
  fill(history);
  const after = await settledBytes(gc);
  const estimated = history.heldBytes();
  // Closed after the reading, so the recorder is alive across it.
  void history.close();
  return { measured: after - before, estimated };
}

const keyId = (key: number) => `k_${key.toString(36).padStart(12, '0')}`;

function median(values: number[]): number {
  return percentile(Float64Array.from(values).sort(), 0.5);
}

async function main(): Promise<void> {
  if (!collect) throw new Error('needs --expose-gc');
  const gc = () => collect();
  const config = JSON.parse(await readFile(process.argv[2] ?? '', 'utf8')) as HistoryMemoryConfig;
  // The traffic's inputs, drawn before anything is measured.
  const random = seededRandom(20261126);
  const served = Uint32Array.from({ length: config.ordinaryKeys * callsPerOrdinaryKey }, () =>
    Math.floor(random() * 150_000),
  );
  const allPositions = Array.from({ length: 1_500_000 }, (_, rank) => rank);
  const ordinary = (history: UsageHistory) => {
    for (let key = 0; key < config.ordinaryKeys; key++) {
      const id = keyId(key);
      for (let call = 0; call < callsPerOrdinaryKey; call++) {
        history.record(id, 'served', now + call);
        history.cover(id, [served[key * callsPerOrdinaryKey + call] as number], now + call);
      }
      history.record(id, 'rate-limited', now);
      history.sight(id, 'network', `10.${key % 250}.${key % 200}.0/24`, now);
      history.sight(id, 'origin', `https://app-${key}.example`, now);
      for (let page = 0; page < 5; page++) history.sight(id, 'page', `category=love|${page * 50}|50`, now);
    }
  };
  const bound = (history: UsageHistory) => {
    for (let key = 0; key < config.boundKeys; key++) {
      const id = keyId(key);
      for (const outcome of ['served', 'rate-limited', 'allowance-exhausted', 'origin-not-allowed', 'not-found'])
        history.record(id, outcome, now);
      history.cover(id, allPositions, now);
      for (let value = 0; value < 1200; value++) {
        history.sight(id, 'network', `10.${value >> 8}.${value & 255}.0/24`, now);
        history.sight(id, 'origin', `https://${String(value).padStart(6, '0')}.${'o'.repeat(180)}.example`, now);
        history.sight(id, 'page', `category=love&mood=hopeful&era=modern|${value * 100}|100`, now);
      }
    }
  };
  const ordinaryRounds: Held[] = [];
  const boundRounds: Held[] = [];
  for (let round = 0; round < config.rounds; round++) {
    ordinaryRounds.push(await held(gc, ordinary));
    boundRounds.push(await held(gc, bound));
  }
  const perKey = (rounds: Held[], figure: keyof Held, keys: number) =>
    Math.round(median(rounds.map((item) => item[figure])) / keys);
  const result: HistoryMemoryResult = {
    ordinaryKeys: config.ordinaryKeys,
    ordinaryBytesPerKey: perKey(ordinaryRounds, 'measured', config.ordinaryKeys),
    ordinaryEstimatedBytesPerKey: perKey(ordinaryRounds, 'estimated', config.ordinaryKeys),
    boundKeys: config.boundKeys,
    boundBytesPerKey: perKey(boundRounds, 'measured', config.boundKeys),
    boundEstimatedBytesPerKey: perKey(boundRounds, 'estimated', config.boundKeys),
    rounds: config.rounds,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`history memory worker: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
