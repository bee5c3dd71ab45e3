import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { type AdminCli, buildAdminCli } from '../support/adminProcess.js';
import { loadFixtureCorpus } from '@quotes/server/testing';
import { insertPendingRequests } from '@quotes/server/testing';
import { type SmtpInbox, startSmtpInbox } from '@quotes/server/testing';
import { startTestServer, type TestServer } from '@quotes/server/testing';

// Clients on different networks: loopback addresses in different /24s (all of 127/8 is local).
let database: TestDatabase;
let cli: AdminCli;
let inbox: SmtpInbox;
let server: TestServer;

beforeAll(async () => {
  [database, cli, inbox] = await Promise.all([createTestDatabase(), buildAdminCli(), startSmtpInbox()]);
  await loadFixtureCorpus(database);
  server = await startTestServer(database);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await inbox?.close();
  await database?.drop();
});

/** One GET from a given local address (a client on that network). */
function callFrom(localAddress: string, path: string, key: string, origin?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      `${server.url}${path}`,
      {
        localAddress,
        headers: { 'X-API-Key': key, ...(origin === undefined ? {} : { Origin: origin }) },
        signal: AbortSignal.timeout(15_000),
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

interface SignalRow {
  subject: string;
  signal: string;
  involves: { keys: string[]; requests: string[] };
  evidence: string;
  figures: Record<string, number | string>;
}

describe('usage signals', () => {
  it('name the sweeping key, the shared key and the rotated trials with evidence, and no ordinary key', async () => {
    const harvester = await server.createKey({ plan: 'professional', client: 'Harvester' });
    const shared = await server.createKey({ plan: 'starter', client: 'Published key' });
    const ordinary = await server.createKey({ plan: 'professional', client: 'Ordinary app' });
    const trials = await Promise.all([1, 2, 3].map((n) => server.createKey({ plan: 'trial', client: `Rotated ${n}` })));
    const loneTrial = await server.createKey({ plan: 'trial', client: 'One trial' });

    // 25 consecutive pages of one filter, in order.
    for (let page = 0; page < 25; page++)
      expect(
        await callFrom('127.0.1.1', `/v1/quotes-filter?category=a&limit=10&offset=${page * 10}`, harvester.key),
      ).toBe(200);
    // One key from six networks in a day.
    for (let network = 10; network < 16; network++)
      for (let call = 0; call < 2; call++)
        expect(await callFrom(`127.0.${network}.1`, '/v1/quotes-random', shared.key)).toBe(200);
    // An ordinary app: random quotes, the first pages of a filter, its own two networks.
    for (let call = 0; call < 10; call++)
      expect(await callFrom(`127.0.${2 + (call % 2)}.1`, '/v1/quotes-random', ordinary.key)).toBe(200);
    for (let page = 0; page < 3; page++)
      expect(
        await callFrom('127.0.2.1', `/v1/quotes-filter?category=a&limit=10&offset=${page * 10}`, ordinary.key),
      ).toBe(200);
    // Three trials from one network; one trial alone from another.
    for (const trial of trials) expect(await callFrom('127.0.20.1', '/v1/quotes-random', trial.key)).toBe(200);
    expect(await callFrom('127.0.21.1', '/v1/quotes-random', loneTrial.key)).toBe(200);

    // Three trials asked for through the form from one network (waiting for the operator).
    const asked = ['r_asked1', 'r_asked2', 'r_asked3'];
    await insertPendingRequests(database, asked, { plan: 'trial', network: '127.0.30' });
    // Three asked for from another network and never confirmed: anyone's typing, not trials.
    const typed = ['r_typed1', 'r_typed2', 'r_typed3'];
    await insertPendingRequests(database, typed, { plan: 'trial', network: '127.0.31' });
    await database.db
      .updateTable('key_requests')
      .set({ status: 'unconfirmed', confirmed_at: null })
      .where('id', 'in', typed)
      .execute();

    await server.flushUsageHistory();
    const run = await cli.run({ DATABASE_URL: database.url }, 'usage', 'signals', '--json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const signals = JSON.parse(run.stdout) as SignalRow[];
    // One row per finding: each network's rotated trials are one finding naming every trial.
    const byText = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).sort();
    // Trials are named oldest first; keys made in the same instant come in either order.
    const named = signals.map((signal) => [
      signal.subject,
      signal.signal,
      { keys: [...signal.involves.keys].sort(), requests: signal.involves.requests },
    ]);
    expect(byText(named)).toEqual(
      byText([
        ['127.0.20.0/24', 'trial-rotation', { keys: trials.map((trial) => trial.id).sort(), requests: [] }],
        ['127.0.30.0/24', 'trial-rotation', { keys: [], requests: asked }],
        [harvester.id, 'coverage', { keys: [harvester.id], requests: [] }],
        [harvester.id, 'sweep', { keys: [harvester.id], requests: [] }],
        [shared.id, 'sharing', { keys: [shared.id], requests: [] }],
      ]),
    );
    expect(run.stdout).not.toContain('r_typed');
    const sweep = signals.find((signal) => signal.signal === 'sweep')!;
    expect(sweep.figures).toMatchObject({
      pages: 25,
      filters: 'category=a',
      fromOffset: 0,
      toOffset: 240,
      pageSize: 10,
    });
    expect(sweep.evidence).toContain('walked 25 consecutive pages of category=a');
    // 25 pages of 10 distinct quotes: 250 of the small fixture corpus, far past 35%.
    const coverage = signals.find((signal) => signal.signal === 'coverage')!;
    const corpus = (await database.db.selectFrom('corpus_state').select('size').executeTakeFirstOrThrow()).size;
    expect(coverage.figures).toEqual({ quotes: 250, corpus, percent: Math.floor(25_000 / corpus), calls: 25 });
    expect(coverage.evidence).toBe(
      `served 250 distinct quotes, ${Math.floor(25_000 / corpus)}% of the ${corpus} in the corpus, in 25 counted calls; threshold 35%`,
    );
    const sharing = signals.find((signal) => signal.signal === 'sharing')!;
    expect(sharing.figures).toMatchObject({ networks: 6, origins: 0 });
    expect(sharing.evidence).toContain('127.0.10.0/24');
    const rotation = signals.find((signal) => signal.involves.keys.includes(trials[0]!.id))!;
    expect(rotation.figures).toMatchObject({ network: '127.0.20.0/24', trials: 3, keys: 3, requests: 0 });
    expect(signals.find((signal) => signal.involves.requests.includes('r_asked1'))!.figures).toMatchObject({
      network: '127.0.30.0/24',
      trials: 3,
      keys: 0,
      requests: 3,
    });

    // Thresholds are the operator's: a higher sweep threshold leaves the harvester alone.
    const lenient = await cli.run(
      { DATABASE_URL: database.url, USAGE_SIGNAL_SWEEP_PAGES: '26' },
      'usage',
      'signals',
      '--json',
    );
    expect((JSON.parse(lenient.stdout) as SignalRow[]).map((signal) => signal.signal)).not.toContain('sweep');

    // alerts --send mails the signs to the operator, and nobody else.
    const sendAlerts = () =>
      cli.run(
        {
          DATABASE_URL: database.url,
          SMTP_URL: inbox.url,
          OPERATOR_EMAIL: 'ops@quotes.example',
          PUBLIC_BASE_URL: 'https://quotes.example.com',
        },
        'usage',
        'alerts',
        '--send',
      );
    const sent = await sendAlerts();
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    const [mail] = await inbox.waitFor(1);
    expect(mail!.to).toMatchObject({ text: 'ops@quotes.example' });
    expect(mail!.subject).toMatch(/5 signs of broken terms/);
    expect(mail!.text).toContain(`${harvester.id} sweep: walked 25 consecutive pages`);
    // Evidence in operator mail is made inert (mail/inertText.ts): no host a mail client could link.
    expect(mail!.text).toContain(`127[.]0[.]30[.]0/24 trial-rotation (${asked.join(', ')}): 3 trials`);
    expect(sent.stdout).toContain('5 new signs of broken terms mailed.');

    // Each sign is mailed once per key, signal and month: a second run mails nothing, and a run
    // after a new sign appeared mails that one alone.
    const again = await sendAlerts();
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('0 new signs of broken terms mailed.');
    const republished = await server.createKey({ plan: 'starter', client: 'Published again' });
    for (let network = 50; network < 55; network++)
      expect(await callFrom(`127.0.${network}.1`, '/v1/quotes-random', republished.key)).toBe(200);
    await server.flushUsageHistory();
    const later = await sendAlerts();
    expect(later.code, later.stderr).toBe(0);
    expect(later.stdout).toContain('1 new sign of broken terms mailed.');
    // Had the second run mailed, its message would be the second one here.
    const [, second] = await inbox.waitFor(2);
    expect(second!.subject).toMatch(/: 1 sign of broken terms/);
    expect(second!.text).toContain(`${republished.id} sharing: on `);
    expect(second!.text).not.toContain(harvester.id);
    const audit = await cli.run({ DATABASE_URL: database.url }, 'audit', 'list', '--json');
    const sends = (JSON.parse(audit.stdout) as { action: string; after: { signals: unknown[] } }[]).filter(
      (entry) => entry.action === 'usage signals send',
    );
    expect(sends.map((entry) => entry.after.signals.length)).toEqual([5, 1]);
  }, 120_000);

  it('see no sharing in a holder’s own dev servers: four ports of localhost, allowed, from one network', async () => {
    const developer = await server.createKey({
      plan: 'starter',
      client: 'Local developer',
      allowedOrigins: ['http://localhost:*'],
    });
    for (const port of [3000, 3001, 5173, 8080])
      for (let call = 0; call < 2; call++)
        expect(await callFrom('127.0.60.1', '/v1/quotes-random', developer.key, `http://localhost:${port}`)).toBe(200);
    await server.flushUsageHistory();
    const run = await cli.run({ DATABASE_URL: database.url }, 'usage', 'signals', '--json');
    expect(run.code, run.stderr).toBe(0);
    const signals = JSON.parse(run.stdout) as SignalRow[];
    expect(signals.filter((signal) => signal.involves.keys.includes(developer.id))).toEqual([]);
    // Every network of every finding is named once.
    for (const signal of signals) {
      const named = /networks \(([^)]*)\)/.exec(signal.evidence)?.[1]?.split(', ') ?? [];
      expect(new Set(named).size, signal.evidence).toBe(named.length);
    }
  }, 60_000);
});
