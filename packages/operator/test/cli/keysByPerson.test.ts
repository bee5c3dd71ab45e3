import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminCli, buildAdminCli, expectOneLineError } from '../support/adminProcess.js';
import { loadFixtureCorpus } from '@quotes/server/testing';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { startTestServer, type TestServer, untilStatus } from '@quotes/server/testing';

// The CLI in its own process and a running server on the same database, as in production.
let cli: AdminCli;
let database: TestDatabase;
let server: TestServer;

beforeAll(async () => {
  [cli, database] = await Promise.all([buildAdminCli(), createTestDatabase()]);
  await loadFixtureCorpus(database);
  server = await startTestServer(database);
});
afterAll(async () => {
  await server?.close();
  await database?.drop();
});

const admin = (...args: string[]) => cli.run({ DATABASE_URL: database.url }, ...args);

interface Issued {
  id: string;
  key: string;
}

async function create(...args: string[]): Promise<Issued> {
  const run = await admin('keys', 'create', ...args, '--json');
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Issued;
}

const month = new Date().toISOString().slice(0, 7);

/** Sets a key's calls this month straight in the database. */
const setCallsThisMonth = (keyId: string, calls: number) =>
  database.db
    .insertInto('monthly_usage')
    .values({ key_id: keyId, month: `${month}-01`, calls })
    .execute();

describe('one trial per person and per client', { timeout: 90_000 }, () => {
  it('Ann+x@Example.com and then ann@example.com get one trial key', async ({ expect }) => {
    const first = await admin('keys', 'create', '--client', 'Ann', '--plan', 'trial', '--email', 'Ann+x@Example.com');
    expect(first.code, first.stderr).toBe(0);
    const annAgain = ['keys', 'create', '--client', 'Ann again', '--plan', 'trial', '--email', 'ann@example.com'];
    const second = await admin(...annAgain);
    expectOneLineError(
      second,
      /refused: one trial per person and client.*Ann\+x@Example\.com.*--allow-another-trial/,
      expect,
    );
    const keys = await database.db
      .selectFrom('api_keys')
      .select('id')
      .where('email_canonical', '=', 'ann@example.com')
      .execute();
    expect(keys).toHaveLength(1);
    // The operator's explicit override.
    const override = await admin(...annAgain, '--allow-another-trial');
    expect(override.code, override.stderr).toBe(0);
    // A paid plan is never limited this way.
    expect(
      (await admin('keys', 'create', '--client', 'Ann', '--plan', 'starter', '--email', 'ann@example.com')).code,
    ).toBe(0);
  });

  it('Gmail dots and googlemail.com are one address; the same client under another address is refused too', async ({
    expect,
  }) => {
    await create('--client', 'Jo Doe', '--plan', 'trial', '--email', 'jo.doe@gmail.com');
    expectOneLineError(
      await admin(
        'keys',
        'create',
        '--client',
        'Someone',
        '--plan',
        'trial',
        '--email',
        'J.O.DOE+promo@googlemail.com',
      ),
      /refused: one trial/,
      expect,
    );
    expectOneLineError(
      await admin('keys', 'create', '--client', '  jo   DOE ', '--plan', 'trial', '--email', 'other@example.org'),
      /refused: one trial/,
      expect,
    );
    // Dots count outside Gmail.
    expect(
      (await admin('keys', 'create', '--client', 'J D', '--plan', 'trial', '--email', 'jo.doe@example.net')).code,
    ).toBe(0);
  });

  it('a trial is never renewed past its 30 days from issue, and no expiry lies in the past', async ({ expect }) => {
    const trial = await create('--client', 'Renewing trial', '--plan', 'trial', '--email', 'renew@example.test');
    expectOneLineError(
      await admin('keys', 'renew', trial.id, '--until', '2099-01-01'),
      /at most 30 days from issue/,
      expect,
    );
    const soon = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    expect((await admin('keys', 'renew', trial.id, '--until', soon, '--no-send')).code).toBe(0);
    expectOneLineError(await admin('keys', 'renew', trial.id, '--until', '2020-01-01'), /in the future/, expect);
  });
});

describe('keys by person', { timeout: 90_000 }, () => {
  it("lists with filters, e-mail and this month's calls", async ({ expect }) => {
    const a = await create('--client', 'Filter Co', '--plan', 'starter', '--email', 'filter.person@example.test');
    const b = await create(
      '--client',
      'Filter Co',
      '--plan',
      'professional',
      '--email',
      'Filter.Person+b@Example.test',
    );
    const c = await create('--client', 'Elsewhere', '--plan', 'starter', '--email', 'elsewhere@example.test');
    await setCallsThisMonth(a.id, 1234);
    await admin('keys', 'revoke', '--category', 'other', c.id);

    const byEmail = await admin('keys', 'list', '--email', 'FILTER.PERSON@example.test');
    expect(byEmail.code, byEmail.stderr).toBe(0);
    expect(byEmail.stdout).toMatch(/EMAIL.*CALLS THIS MONTH/);
    expect(byEmail.stdout).toMatch(new RegExp(`${a.id}.*filter\\.person@example\\.test\\s+starter\\s+active\\s+1,234`));
    expect(byEmail.stdout).toContain(b.id);
    expect(byEmail.stdout).not.toContain(c.id);

    const json = async (...args: string[]) =>
      (JSON.parse((await admin('keys', 'list', ...args, '--json')).stdout) as { id: string }[]).map((key) => key.id);
    const [byClient, byPlan, revoked, clientAndPlan] = await Promise.all([
      json('--client', 'filter co'),
      json('--plan', 'professional'),
      json('--status', 'revoked'),
      json('--client', 'Filter Co', '--plan', 'starter'),
    ]);
    expect(byClient.sort()).toEqual([a.id, b.id].sort());
    expect(byPlan).toContain(b.id);
    expect(byPlan).not.toContain(a.id);
    expect(revoked).toEqual(expect.arrayContaining([c.id]));
    expect(revoked).not.toContain(a.id);
    expect(clientAndPlan).toEqual([a.id]);
  });

  it('revoke --email cuts off every key of that person on a running server within a second', async ({ expect }) => {
    const mine = [
      await create('--client', 'Rotator', '--plan', 'starter', '--email', 'rotator@example.test'),
      await create('--client', 'Rotator 2', '--plan', 'professional', '--email', 'Rotator+2@example.test'),
      await create('--client', 'Rotator 3', '--plan', 'trial', '--email', 'ROTATOR@example.test'),
    ];
    const bystander = await create('--client', 'Bystander', '--plan', 'starter', '--email', 'bystander@example.test');
    // The running server has every key cached.
    for (const issued of [...mine, bystander])
      expect((await server.call('/v1/quotes-usage', { key: issued.key })).status).toBe(200);

    const revoked = await admin(
      'keys',
      'revoke',
      '--category',
      'other',
      '--email',
      'rotator@example.test',
      '--reason',
      'rotating trials',
    );
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain('Revoked 3 keys in one transaction');
    for (const issued of mine) expect(revoked.stdout).toContain(issued.id);
    expect(revoked.stdout).not.toContain(bystander.id);

    const delays = await Promise.all(mine.map((issued) => untilStatus(server, issued.key, 403, 1000)));
    for (const delay of delays) expect(delay).toBeLessThan(1000);
    expect((await server.call('/v1/quotes-usage', { key: bystander.key })).status).toBe(200);
    expect((await admin('keys', 'revoke', '--category', 'other', '--email', 'rotator@example.test')).stdout).toContain(
      'nothing revoked',
    );
  });

  it('revoke --client takes every key of the client, whoever holds it', async ({ expect }) => {
    const one = await create('--client', 'Shared Client', '--plan', 'starter', '--email', 'one@shared.example');
    const two = await create('--client', 'shared  client', '--plan', 'starter');
    const run = await admin('keys', 'revoke', '--category', 'other', '--client', 'SHARED CLIENT');
    expect(run.stdout).toContain('Revoked 2 keys');
    expect(run.stdout).toContain(one.id);
    expect(run.stdout).toContain(two.id);
    expectOneLineError(await admin('keys', 'revoke', '--category', 'other'), /a key id, --email or --client/, expect);
    expectOneLineError(
      await admin('keys', 'revoke', '--category', 'other', one.id, '--client', 'x'),
      /not both/,
      expect,
    );
  });

  it('change-plan keeps the secret and the usage; leaving trial drops its expiry', async ({ expect }) => {
    const trial = await create('--client', 'Upgrader', '--plan', 'trial', '--email', 'upgrader@example.test');
    await setCallsThisMonth(trial.id, 999);
    const changed = await admin('keys', 'change-plan', trial.id, '--plan', 'starter', '--no-send');
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toContain(`${trial.id} (Upgrader) is now on starter: 10,000 calls a month, pages up to 25.`);
    const show = JSON.parse((await admin('keys', 'show', trial.id, '--json')).stdout) as {
      plan: string;
      expiresAt: string | null;
      usage: { calls: number; limit: number };
    };
    expect(show).toMatchObject({ plan: 'starter', expiresAt: null, usage: { calls: 999, limit: 10_000 } });
    // The running server sees the new plan within a second, with the same key.
    const started = Date.now();
    for (;;) {
      const answer = await server.call('/v1/quotes-usage', { key: trial.key });
      if ((answer.body as { tier?: string }).tier === 'starter') break;
      if (Date.now() - started > 1000) throw new Error('the server still sees the old plan');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const enterprise = await admin(
      'keys',
      'change-plan',
      trial.id,
      '--plan',
      'enterprise',
      '--monthly-calls',
      '5000',
      '--no-send',
    );
    expect(enterprise.stdout).toContain('is now on enterprise: 5,000 calls a month');
    expectOneLineError(
      await admin('keys', 'change-plan', trial.id, '--plan', 'starter', '--max-limit', '5', '--no-send'),
      /only .*enterprise/,
      expect,
    );
    expectOneLineError(await admin('keys', 'change-plan', trial.id, '--plan', 'gold'), /Allowed choices|gold/, expect);
  });

  it('roll gives the same key record a new secret; the old one is refused at once, or after the grace chosen', async ({
    expect,
  }) => {
    const issued = await create('--client', 'Leaky', '--plan', 'starter', '--email', 'leaky@example.test');
    await setCallsThisMonth(issued.id, 42);
    expect((await server.call('/v1/quotes-usage', { key: issued.key })).status).toBe(200);
    const rolled = await admin('keys', 'roll', issued.id, '--json');
    expect(rolled.code, rolled.stderr).toBe(0);
    const fresh = JSON.parse(rolled.stdout) as Issued;
    expect(fresh.id).toBe(issued.id);
    expect(fresh.key).not.toBe(issued.key);
    expect(await untilStatus(server, issued.key, 401, 1000)).toBeLessThan(1000);
    const answer = await server.call('/v1/quotes-usage', { key: fresh.key });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ calls_this_month: 42 });
    // With a grace, as the holder's page offers: both secrets work until it ends.
    const graced = await admin('keys', 'roll', issued.id, '--grace', '1-hour');
    expect(graced.code, graced.stderr).toBe(0);
    expect(graced.stdout).toMatch(
      /^The secret it replaced keeps working until \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z, then is refused\.$/m,
    );
    expect((await server.call('/v1/quotes-usage', { key: fresh.key })).status).toBe(200);
    expectOneLineError(await admin('keys', 'roll', issued.id, '--grace', '2-days'), /Allowed choices|2-days/, expect);
    await admin('keys', 'revoke', '--category', 'other', issued.id);
    expectOneLineError(await admin('keys', 'roll', issued.id), /revoked/, expect);
  });
});

describe('what the operator types and sees', { timeout: 90_000 }, () => {
  it.concurrent.for<[string[], RegExp]>([
    [
      ['keys', 'create', '--client', 'x\nk_FAKE  spoofed  platform  active', '--plan', 'starter'],
      /client ".*\\n.*" contains a control character/,
    ],
    [['keys', 'create', '--client', 'Evil\u001b[31mRed', '--plan', 'starter'], /control character/],
    [['keys', 'create', '--client', 'x'.repeat(201), '--plan', 'starter'], /client must be 1 to 200 characters/],
    [['keys', 'create', '--client', '   ', '--plan', 'starter'], /client must be 1 to 200 characters/],
    [['keys', 'create', '--client', 'X', '--plan', 'starter', '--email', 'a@b'], /not an e-mail address/],
    [
      ['keys', 'create', '--client', 'X', '--plan', 'starter', '--email', 'Ann <ann@example.com>'],
      /not an e-mail address/,
    ],
    [['keys', 'create', '--client', 'X', '--plan', 'starter', '--email', 'a@b@example.com'], /not an e-mail address/],
    [
      ['keys', 'create', '--client', 'X', '--plan', 'starter', '--email', 'ann@example.com\nBcc: x@y.z'],
      /not an e-mail address/,
    ],
    [
      ['keys', 'create', '--client', 'X', '--plan', 'starter', '--email', `${'a'.repeat(250)}@example.com`],
      /at most 254/,
    ],
    [['keys', 'list', '--email', 'nope'], /not an e-mail address/],
    [['keys', 'revoke', '--category', 'other', 'k_x', '--reason', 'a\u0007b'], /reason .* control character/],
  ])('refuses %j in one line', async ([args, pattern], { expect }) => {
    const run = await admin(...args);
    expectOneLineError(run, pattern, expect);
    expect(run.stderr).not.toContain('\u001b');
  });

  it('prints stored names escaped: no forged rows, no escape sequences', async ({ expect }) => {
    const forged = 'x\nk_FAKE0000000  qk_FAKE00  spoofed  -  platform  active';
    const ansi = 'Evil\u001b[2J\u001b[31mRed\u009b1m';
    // Rows written before names were checked: straight into the table.
    for (const [index, client] of [forged, ansi].entries()) {
      await database.db
        .insertInto('api_keys')
        .values({
          id: `k_legacy${index}xxxx`,
          key_hash: Buffer.alloc(32, index + 1),
          key_prefix: 'qk_legacy',
          client,
          email: null,
          plan_id: 'starter',
          monthly_calls: null,
          max_limit: null,
          status: 'active',
          revoked_at: null,
          revoked_reason: null,
          expires_at: null,
        })
        .execute();
    }
    const [list, report, show] = await Promise.all([
      admin('keys', 'list'),
      admin('usage', 'report'),
      admin('keys', 'show', 'k_legacy1xxxx'),
    ]);
    for (const run of [list, report, show]) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).not.toContain('\u001b');
      expect(run.stdout).not.toContain('\u009b');
    }
    for (const run of [list, report]) {
      expect(run.stdout.split('\n').some((line) => line.startsWith('k_FAKE'))).toBe(false);
      expect(run.stdout).toContain('x\\nk_FAKE0000000');
    }
    expect(list.stdout).toContain('Evil\\e[2J\\e[31mRed\\u009b1m');
    expect(show.stdout).toContain('client       Evil\\e[2J');
  });

  it('usage report --csv: one row per key, quoted so that no value breaks or runs a spreadsheet', async ({
    expect,
  }) => {
    const odd = await create('--client', 'Comma, "Quote" & Co', '--plan', 'starter', '--email', 'csv@example.test');
    const formula = await create('--client', '=HYPERLINK("http://x")', '--plan', 'platform');
    await database.db
      .insertInto('monthly_usage')
      .values([
        { key_id: odd.id, month: '2026-09-01', calls: 2500 },
        { key_id: formula.id, month: '2026-09-01', calls: 7 },
      ])
      .execute();
    expect((await admin('keys', 'revoke', '--category', 'other', formula.id)).code).toBe(0);
    const run = await admin('usage', 'report', '--month', '2026-09', '--csv');
    expect(run.code, run.stderr).toBe(0);
    const rows = parse(run.stdout, { columns: true }) as Record<string, string>[];
    expect(run.stdout.split('\n')[0]).toBe(
      'month,key_id,key_prefix,client,email,plan,state,calls,allowance,percent_used',
    );
    expect(rows.find((row) => row.key_id === odd.id)).toEqual({
      month: '2026-09',
      key_id: odd.id,
      // The start of the secret the customer holds: how they know the key.
      key_prefix: odd.key.slice(0, 11),
      client: 'Comma, "Quote" & Co',
      email: 'csv@example.test',
      plan: 'starter',
      state: 'active',
      calls: '2500',
      allowance: '10000',
      percent_used: '25',
    });
    expect(rows.find((row) => row.key_id === formula.id)).toMatchObject({
      client: `'=HYPERLINK("http://x")`,
      state: 'revoked',
      allowance: '',
      percent_used: '',
      calls: '7',
    });
    // Every key, including those without calls that month.
    const all = (JSON.parse((await admin('keys', 'list', '--json')).stdout) as unknown[]).length;
    expect(rows).toHaveLength(all);
  });
});
