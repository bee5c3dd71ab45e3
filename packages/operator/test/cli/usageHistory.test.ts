import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { createOperatorApi, type OperatorApi } from '@quotes/accounts';
import { type AdminCli, buildAdminCli, expectOneLineError } from '../support/adminProcess.js';
import { loadFixtureCorpus } from '@quotes/server/testing';
import { get, type ServiceProcess, startServiceProcess } from '@quotes/server/testing';

// Two real server processes on one database, the history and the signs read back through the
// real CLI: after mixed traffic from 20 keys each key's `served` history must equal its monthly
// counter, each refusal appear under its problem type, and `usage signals` name the harvesting
// and the shared key, and no other.
let database: TestDatabase;
let cli: AdminCli;
let operator: OperatorApi;
const flushMs = 1000;
/** COUNT_FLUSH_MS of the servers here: the default. */
const countFlushMs = 200;

beforeAll(async () => {
  [database, cli] = await Promise.all([createTestDatabase(), buildAdminCli()]);
  await loadFixtureCorpus(database);
  operator = createOperatorApi(database);
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

const serverEnv = () => ({ DATABASE_URL: database.url, USAGE_HISTORY_FLUSH_MS: String(flushMs), LOG_LEVEL: 'warn' });
const admin = (...args: string[]) => cli.run({ DATABASE_URL: database.url }, ...args);

interface HistoryRow {
  start: string;
  outcome: string;
  calls: number;
}

async function history(id: string, ...options: string[]): Promise<HistoryRow[]> {
  const run = await admin('usage', 'history', id, '--json', ...options);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as HistoryRow[];
}

function byOutcome(rows: HistoryRow[]): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const row of rows) totals[row.outcome] = (totals[row.outcome] ?? 0) + row.calls;
  return totals;
}

/** `served` for an answer the counter keeps (2xx, 304, 404 no-match), else the problem type. */
function outcomeOf(status: number, body: string): string {
  if (status < 300 || status === 304) return 'served';
  const type = (JSON.parse(body) as { type: string }).type;
  const kind = type.slice(type.lastIndexOf(':') + 1);
  // A filter matching nothing is still a counted call.
  return kind === 'no-match' ? 'served' : kind;
}

async function stop(service: ServiceProcess): Promise<void> {
  service.child.kill('SIGTERM');
  const { code } = await service.exited;
  expect(code).toBe(0);
}

describe('usage history on two servers sharing one database', () => {
  it("equals each key's monthly counter after traffic from 20 keys; the signs name the harvester and the shared key alone", async () => {
    const [first, second] = await Promise.all([startServiceProcess(serverEnv()), startServiceProcess(serverEnv())]);
    const trial = await operator.createKey({ client: 'Burst', plan: 'trial' });
    const starter = await operator.createKey({
      client: 'Browser',
      plan: 'starter',
      allowedOrigins: ['https://app.example'],
    });
    const capped = await operator.createKey({ client: 'Capped', plan: 'enterprise', monthlyCalls: 7 });
    const professional = await operator.createKey({ client: 'Steady', plan: 'professional' });
    // Walks 25 consecutive pages of one filter: 250 of the fixture's 430 quotes.
    const harvester = await operator.createKey({ client: 'Harvester', plan: 'professional' });
    // Used from six networks on one day: a published key.
    const shared = await operator.createKey({ client: 'Published key', plan: 'starter' });
    // Ordinary apps on every plan but trial (three trials on one network would be a rotation).
    const plans = ['starter', 'professional', 'platform', 'enterprise'] as const;
    const apps = await Promise.all(
      Array.from({ length: 14 }, (_, n) =>
        operator.createKey({
          client: `App ${n}`,
          plan: plans[n % plans.length]!,
          unlimited: plans[n % plans.length] === 'enterprise',
        }),
      ),
    );
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    const expected = new Map<string, Record<string, number>>();
    const call = async (
      server: ServiceProcess,
      path: string,
      headers: Record<string, string>,
      bucket: string,
      localAddress?: string,
    ) => {
      const answer = await get(`${server.url}${path}`, headers, { agent, localAddress });
      const outcome = outcomeOf(answer.status, answer.body);
      const totals = expected.get(bucket) ?? {};
      totals[outcome] = (totals[outcome] ?? 0) + 1;
      expected.set(bucket, totals);
      return outcome;
    };
    const servers = [first, second];
    const on = (index: number) => servers[index % 2]!;
    try {
      await Promise.all([
        // A trial key's burst beyond its 10 calls a second: 429 rate-limited on both servers.
        ...Array.from({ length: 40 }, (_, i) => call(on(i), '/v1/quotes-random', { 'X-API-Key': trial.key }, trial.id)),
        // A browser key from its own page and from another: 403 origin-not-allowed.
        ...Array.from({ length: 12 }, (_, i) =>
          call(
            on(i),
            '/v1/quotes-random',
            { 'X-API-Key': starter.key, Origin: i % 3 === 0 ? 'https://evil.example' : 'https://app.example' },
            starter.id,
          ),
        ),
        // Beyond a monthly allowance of 7: 429 allowance-exhausted.
        ...Array.from({ length: 11 }, (_, i) =>
          call(on(i), '/v1/quotes-categories', { 'X-API-Key': capped.key }, capped.id),
        ),
        // Served, a no-match 404 (counted), a 400 and a free quotes-usage (in no bucket).
        ...Array.from({ length: 9 }, (_, i) =>
          call(
            on(i),
            ['/v1/quotes-random?category=a', '/v1/quotes-filter?category=zzzz', '/v1/quotes-random?limit=x'][i % 3]!,
            { 'X-API-Key': professional.key },
            professional.id,
          ),
        ),
        // Each app: random quotes, the first three pages of a filter, the categories, a no-match and a
        // bad request, from its own network and the shared loopback one.
        ...apps.flatMap((app, n) =>
          [
            '/v1/quotes-random',
            '/v1/quotes-random?category=a',
            '/v1/quotes-filter?category=a&limit=10&offset=0',
            '/v1/quotes-filter?category=a&limit=10&offset=10',
            '/v1/quotes-filter?category=a&limit=10&offset=20',
            '/v1/quotes-categories',
            '/v1/quotes-filter?category=zzzz',
            '/v1/quotes-random?limit=x',
          ].map((path, i) =>
            call(on(i + n), path, { 'X-API-Key': app.key }, app.id, i % 2 ? `127.0.${100 + n}.1` : undefined),
          ),
        ),
        ...Array.from({ length: 25 }, (_, page) =>
          call(
            on(page),
            `/v1/quotes-filter?category=a&limit=10&offset=${page * 10}`,
            { 'X-API-Key': harvester.key },
            harvester.id,
            '127.0.90.1',
          ),
        ),
        ...Array.from({ length: 12 }, (_, i) =>
          call(on(i), '/v1/quotes-random', { 'X-API-Key': shared.key }, shared.id, `127.0.${10 + (i % 6)}.1`),
        ),
        // Unknown and missing keys: 401, together in the unknown bucket.
        ...Array.from({ length: 6 }, (_, i) =>
          call(on(i), '/v1/quotes-random', i % 2 ? { 'X-API-Key': `qk_${'x'.repeat(24)}` } : {}, 'unknown'),
        ),
      ]);
      await get(`${first.url}/v1/quotes-usage`, { 'X-API-Key': professional.key }, { agent });
    } finally {
      agent.destroy();
      // SIGTERM: each server writes what it counted before it exits.
      await Promise.all(servers.map(stop));
    }

    expect(expected.get(trial.id)?.['rate-limited']).toBeGreaterThan(0);
    expect(expected.get(starter.id)?.['origin-not-allowed']).toBe(4);
    expect(expected.get(capped.id)).toEqual({ served: 7, 'allowance-exhausted': 4 });
    expect(expected.get(harvester.id)).toEqual({ served: 25 });
    const today = new Date().toISOString().slice(0, 10);
    const keys = [trial, starter, capped, professional, harvester, shared, ...apps];
    // Four CLI processes at a time: 40 runs one after another take most of a minute on 2 cores.
    for (let first = 0; first < keys.length; first += 4)
      await Promise.all(
        keys.slice(first, first + 4).map(async (key) => {
          const rows = await history(key.id, '--from', today);
          const counter = (await operator.usage(key.id)).calls;
          expect(byOutcome(rows)).toEqual(expected.get(key.id));
          expect(byOutcome(rows).served ?? 0).toBe(counter);
          // By hour the same calls, each row the start of an hour.
          const hourly = await history(key.id, '--by', 'hour');
          expect(byOutcome(hourly)).toEqual(expected.get(key.id));
          for (const row of hourly) expect(row.start).toMatch(/T\d{2}:00:00Z$/);
        }),
      );
    expect(byOutcome(await history('unknown'))).toEqual(expected.get('unknown'));

    const run = await admin('usage', 'signals', '--json');
    expect(run.stderr).toBe('');
    const signals = JSON.parse(run.stdout) as { subject: string; signal: string; evidence: string }[];
    expect(signals.map((signal) => [signal.subject, signal.signal])).toEqual(
      [
        [harvester.id, 'coverage'],
        [harvester.id, 'sweep'],
        [shared.id, 'sharing'],
      ].sort((a, b) => a[0]!.localeCompare(b[0]!)),
    );
    const evidence = new Map(signals.map((signal) => [signal.signal, signal.evidence]));
    expect(evidence.get('coverage')).toBe(
      'served 250 distinct quotes, 58% of the 430 in the corpus, in 25 counted calls; threshold 35%',
    );
    expect(evidence.get('sweep')).toMatch(/^walked 25 consecutive pages of category=a \(offsets 0 to 240, 10 a page/);
    expect(evidence.get('sharing')).toMatch(/used from 6 networks \(127\.0\.10\.0\/24, 127\.0\.11\.0\/24/);

    const csv = await admin('usage', 'history', capped.id, '--csv');
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\n')[0]).toBe('start,outcome,calls');
    expect(csv.stdout).toMatch(/T00:00:00Z,allowance-exhausted,4\n/);
  }, 120_000);

  it('loses at most one flush interval of history when a server is killed; the next server adds the calls it journaled', async () => {
    const service = await startServiceProcess({ ...serverEnv(), COUNT_FLUSH_MS: String(countFlushMs) });
    const issued = await operator.createKey({ client: 'Killed', plan: 'professional' });
    const clients = 4;
    const agent = new Agent({ keepAlive: true, maxSockets: clients });
    const answeredAt: number[] = [];
    let running = true;
    const loop = async () => {
      while (running) {
        const answer = await get(`${service.url}/v1/quotes-categories`, { 'X-API-Key': issued.key }, { agent }).catch(
          () => undefined,
        );
        if (answer?.status === 200) answeredAt.push(performance.now());
        else if (answer === undefined) return;
      }
    };
    const loops = Array.from({ length: clients }, loop);
    // Past at least two flushes, then killed at a moment unrelated to them.
    await new Promise((resolve) => setTimeout(resolve, 2.5 * flushMs + Math.random() * flushMs));
    const killedAt = performance.now();
    service.kill();
    running = false;
    await Promise.all(loops);
    await service.exited;
    agent.destroy();

    const answered = answeredAt.length;
    const counter = (await operator.usage(issued.id)).calls;
    const served = byOutcome(await history(issued.id)).served ?? 0;
    const answeredWithin = (ms: number) => answeredAt.filter((at) => at > killedAt - ms).length;
    console.log(
      `SIGKILL: ${answered} answered; monthly count ${counter} (${answered - counter} lost, ` +
        `${answeredWithin(2 * countFlushMs)} answered in the last ${2 * countFlushMs} ms); ` +
        `history ${served} (${answered - served} lost, ${answeredWithin(flushMs)} answered in the last ${flushMs} ms)`,
    );
    // Never a call counted that was not answered: an answer is counted as it is handed to the
    // socket, so only those on their way at the kill (one per client) may not have arrived.
    expect(counter).toBeLessThanOrEqual(answered + clients);
    expect(served).toBeLessThanOrEqual(answered + clients);
    // The monthly count loses what the server answered since the start of its last committed
    // flush (a flush takes its counts when it starts and commits a round trip later): under two
    // intervals while a round takes less than one. The history loses at most its own interval.
    expect(answered - counter).toBeLessThanOrEqual(answeredWithin(2 * countFlushMs) + clients);
    expect(answered - served).toBeLessThanOrEqual(answeredWithin(flushMs) + clients);

    // The next server on this host (the same DATA_DIR) adds what the killed one journaled and had
    // not written, at its start. An answer leaves once its call is journaled, so none is missing;
    // only a call journaled and killed before its answer left (one per client at most) is extra.
    const next = await startServiceProcess({ ...serverEnv(), COUNT_FLUSH_MS: String(countFlushMs) });
    try {
      let recovered = (await operator.usage(issued.id)).calls;
      for (let tries = 0; recovered === counter && tries < 50; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        recovered = (await operator.usage(issued.id)).calls;
      }
      console.log(`SIGKILL, then a server started on the same host: ${recovered} counted of ${answered} answered`);
      expect(recovered).toBeGreaterThanOrEqual(answered);
      expect(recovered).toBeLessThanOrEqual(answered + clients);
    } finally {
      await stop(next);
    }
  }, 120_000);

  it('records nothing with USAGE_HISTORY=off, while the monthly counter still counts', async () => {
    const service = await startServiceProcess({ ...serverEnv(), USAGE_HISTORY: 'off' });
    const issued = await operator.createKey({ client: 'Unrecorded', plan: 'professional' });
    for (let call = 0; call < 5; call += 1)
      expect((await get(`${service.url}/v1/quotes-random`, { 'X-API-Key': issued.key })).status).toBe(200);
    expect((await get(`${service.url}/v1/quotes-random`, { 'X-API-Key': 'qk_unknown' })).status).toBe(401);
    // Past a flush interval and a shutdown, the two moments the history is written.
    await new Promise((resolve) => setTimeout(resolve, 1.5 * flushMs));
    await stop(service);
    expect((await operator.usage(issued.id)).calls).toBe(5);
    expect(await history(issued.id)).toEqual([]);
  }, 60_000);

  it('refuses a bad history request in one line', async () => {
    const issued = await operator.createKey({ client: 'Asked', plan: 'starter' });
    expectOneLineError(await admin('usage', 'history', 'k_nope'), /no key with id "k_nope"/, expect);
    expectOneLineError(await admin('usage', 'history', issued.id, '--from', 'last week'), /--from/, expect);
    expectOneLineError(
      await admin('usage', 'history', issued.id, '--from', '2026-11-05', '--to', '2026-11-04'),
      /from must be before to/,
      expect,
    );
    expectOneLineError(await admin('usage', 'history', issued.id, '--by', 'week'), /--by/, expect);
    expectOneLineError(await admin('usage', 'history', issued.id, '--json', '--csv'), /--json or --csv/, expect);
    expect((await admin('usage', 'history', issued.id)).stdout).toBe(`No calls of ${issued.id} in that range.\n`);
  }, 60_000);
});
