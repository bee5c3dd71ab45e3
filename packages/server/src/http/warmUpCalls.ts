import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rules } from '@quotes/contract';
import { type ApiKeyRecord, generateApiKey, generateKeyId } from '@quotes/accounts';
import { createLogger, settledWithin } from '@quotes/service-base';
import { CountJournal } from '../data/counting/countJournal.js';
import { KeyCache } from '../keys/keyCache.js';
import { MonthlyCounter } from '../data/counting/monthlyCounter.js';
import { EarlierPeriodCalls } from '../data/counting/earlierPeriodCalls.js';
import { AllowanceCrossings } from '../domain/allowanceCrossings.js';
import { ColdWork } from '../fairness/coldWork.js';
import { KeyFairness } from '../fairness/keyFairness.js';
import { listen } from '../listening.js';
import type { ServiceRuntime } from '../serviceRuntime.js';
import { createApp } from './app.js';
import type { ContractRouting } from './contractRouting.js';

/** Calls in flight at once: a key's calls at once (KeyFairness's default), so none waits in its line. */
const lanes = 8;
/** A call's answer within this long, or the warm-up stops: it only ever reads. */
const callTimeoutMs = 2000;
/** The counter's interval and the keys' trust, never reached: its counts are dropped, never written. */
const neverMs = 2 ** 31 - 1;
/** The warm-up's own burst share, calls a second: its bucket never runs dry. */
const unthrottled = 1_000_000;

/**
 * A platform key: every filter, the platform's page, no monthly allowance (so no lease to ask the
 * database for) and a burst limit (so the token bucket's code runs, as for every capped plan).
 */
function warmUpKey(): ApiKeyRecord {
  const plan = rules.planById.get('platform');
  if (plan === undefined || plan.monthlyCalls !== null || plan.requestsPerSecond === null)
    throw new Error('the contract has no platform plan without a monthly allowance and with a burst limit');
  const now = new Date();
  return {
    id: generateKeyId(),
    keyPrefix: '',
    client: 'warm-up',
    email: null,
    plan,
    overrides: { monthlyCalls: null, maxLimit: null },
    status: 'active',
    revokedAt: null,
    revokedReason: null,
    revokedCategory: null,
    expiresAt: null,
    createdAt: now,
    allowedOrigins: [],
    previousValidUntil: null,
  };
}

/**
 * The runtime the warm-up's calls are answered by: the server's own catalog, database and rules,
 * and, for everything a call leaves behind, instances of the same classes that only the warm-up
 * reaches (so the code compiled for them serves the server's own after): a key cache holding a
 * key that exists in this process's memory alone, a counter journaling to a folder of its own
 * and dropped unwritten (the key needs no lease, so no round runs), burst limits and cold-work
 * turns of its own (nothing announced to other servers), log lines written nowhere, and no usage
 * history (decision 0069).
 */
function warmUpRuntime(runtime: ServiceRuntime, secret: string): { runtime: ServiceRuntime; discard(): void } {
  const keys = new KeyCache(runtime.database.db, () => true, neverMs);
  keys.remember(secret, warmUpKey());
  let journalDir: string | undefined;
  let journal: CountJournal | undefined;
  try {
    journalDir = mkdtempSync(join(tmpdir(), `quotes-warm-up-${process.pid}-`));
    journal = new CountJournal(journalDir);
  } catch {
    // Without a folder the calls are answered unjournaled, as the server's own are then.
  }
  const counter = new MonthlyCounter(runtime.database.pool, { flushMs: neverMs, journal });
  const log = createLogger({ level: runtime.log.level, destination: { write: () => undefined } });
  return {
    runtime: {
      ...runtime,
      log,
      keys,
      counter,
      earlierCalls: new EarlierPeriodCalls(counter),
      crossings: new AllowanceCrossings(),
      fairness: new KeyFairness({ share: () => unthrottled }),
      coldWork: new ColdWork({ atOnce: runtime.coldWork.atOnce }),
      history: undefined,
    },
    discard: () => {
      counter.discard();
      if (journalDir !== undefined) rmSync(journalDir, { recursive: true, force: true });
    },
  };
}

/** One GET, its answer read to the end; its status, or an error. */
function get(agent: Agent, port: number, path: string, secret: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const call = request({ host: '127.0.0.1', port, path, agent, headers: { 'X-API-Key': secret } }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve(answer.statusCode ?? 0));
      answer.on('error', reject);
    });
    call.setTimeout(callTimeoutMs, () => call.destroy(new Error('warm-up call timed out')));
    call.on('error', reject);
    call.end();
  });
}

/**
 * The request path's whole code, run through HTTP before the server listens: Node's HTTP, the
 * parse and the key, counting, the reads, the answers' headers and bodies. V8 compiles and
 * optimises what runs often only after thousands of runs, on threads that share the server's
 * core; done here, the first callers meet optimised code (decision 0069). `paths` are sent in
 * turn, `lanes` at once, to a listener of the warm-up's own on the loopback interface, closed
 * before returning, under a key of the warm-up's own (warmUpRuntime). Stops at `calls` calls, at
 * `deadline` (performance.now ms) or at the first answer that is not a 2xx or 404 (the database
 * is down, say: best effort, as the rest of the warm-up); returns the calls answered.
 */
export async function runWarmUpCalls(
  runtime: ServiceRuntime,
  routing: ContractRouting,
  paths: readonly string[],
  limits: { calls: number; deadline: number },
): Promise<number> {
  const secret = generateApiKey();
  const warm = warmUpRuntime(runtime, secret);
  const server = createServer(createApp(warm.runtime, routing));
  const agent = new Agent({ keepAlive: true, maxSockets: lanes });
  let answered = 0;
  let sent = 0;
  let stopped = false;
  try {
    const { port } = await listen(server, 0, '127.0.0.1');
    const lane = async () => {
      while (!stopped && sent < limits.calls && performance.now() < limits.deadline) {
        const path = paths[sent++ % paths.length] as string;
        const status = await get(agent, port, path, secret);
        if (!((status >= 200 && status < 300) || status === 404)) stopped = true;
        else answered++;
      }
    };
    const all = Promise.all(Array.from({ length: lanes }, lane)).catch(() => {
      stopped = true;
    });
    await settledWithin(all, limits.deadline - performance.now() + callTimeoutMs);
    stopped = true;
  } finally {
    agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    warm.discard();
  }
  return answered;
}
