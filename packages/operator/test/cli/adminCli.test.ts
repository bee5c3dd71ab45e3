import { afterAll, beforeAll, describe, it } from 'vitest';
import { type AdminCli, buildAdminCli, expectOneLineError, keysCreate } from '../support/adminProcess.js';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';

let cli: AdminCli;
let database: TestDatabase;

beforeAll(async () => {
  [cli, database] = await Promise.all([buildAdminCli(), createTestDatabase()]);
});
afterAll(async () => {
  await database?.drop();
});

/** The CLI as an operator runs it, the database named by DATABASE_URL (in this process; see the last block for its own). */
const admin = (...args: string[]) => cli.run({ DATABASE_URL: database.url }, ...args);

describe.concurrent('quotes-admin keys', { timeout: 90_000 }, () => {
  it('creates a key, shows it once, and manages it to the end', async ({ expect }) => {
    const created = await admin(
      ...keysCreate('Lanternfish Books', 'starter'),
      '--email',
      'ops@lanternfish.example',
      '--json',
    );
    expect(created.code, created.stderr).toBe(0);
    const issued = JSON.parse(created.stdout) as Record<string, unknown>;
    expect(Object.keys(issued)).toEqual(['id', 'key', 'client', 'plan', 'expires_at']);
    expect(issued).toMatchObject({ client: 'Lanternfish Books', plan: 'starter', expires_at: null });
    expect(issued.key).toMatch(/^qk_[A-Za-z0-9]{24}$/);
    const id = String(issued.id);

    // The key is stored only as a hash.
    const stored = await database.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.key_hash).toHaveLength(32);
    expect(JSON.stringify(stored)).not.toContain(String(issued.key).slice(3));

    const [list, show, usage, human] = await Promise.all([
      admin('keys', 'list'),
      admin('keys', 'show', id),
      admin('usage', 'show', id, '--month', '2026-11'),
      admin(...keysCreate('Trial user', 'trial')),
    ]);
    expect(list.stdout).toContain(id);
    expect(list.stdout).toContain('Lanternfish Books');
    expect(list.stdout).not.toContain(String(issued.key));
    expect(show.stdout).toMatch(/plan\s+starter/);
    expect(show.stdout).toMatch(/calls\/month\s+10,000/);
    expect(usage.stdout).toContain('2026-11');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/qk_[A-Za-z0-9]{24}/);
    expect(human.stdout).toContain('curl -H "X-API-Key: qk_');
    expect(human.stdout).toMatch(/valid until \d{4}-\d{2}-\d{2}T/);

    const revoked = await admin('keys', 'revoke', '--category', 'other', id, '--reason', 'contract ended');
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain('contract ended');
    const again = await admin('keys', 'revoke', '--category', 'other', id);
    expectOneLineError(again, /already revoked/, expect);
    const renewRevoked = await admin('keys', 'renew', id, '--until', '2030-01-01');
    expectOneLineError(renewRevoked, /revoked/, expect);
  });

  it('renews an expired key', async ({ expect }) => {
    const created = await admin(...keysCreate('Expiring', 'professional'), '--json');
    const { id } = JSON.parse(created.stdout) as { id: string };
    // Expired as time would leave it (the CLI refuses an expiry in the past).
    await database.db
      .updateTable('api_keys')
      .set({ expires_at: new Date('2020-01-01T00:00:00Z') })
      .where('id', '=', id)
      .execute();
    expect((await admin('keys', 'show', id)).stdout).toMatch(/state\s+expired/);
    const renewed = await admin('keys', 'renew', id, '--until', '2099-12-31', '--no-send');
    expect(renewed.code, renewed.stderr).toBe(0);
    expect(renewed.stdout).toContain('until 2099-12-31T23:59:59Z (end of that day, UTC); it is active');
  });

  it('ends a date-only expiry at the end of that day, UTC, and says so', async ({ expect }) => {
    const [human, json] = await Promise.all([
      admin(...keysCreate('Dated', 'starter'), '--expires-at', '2099-06-30'),
      admin(...keysCreate('Dated JSON', 'starter'), '--expires-at', '2099-06-30', '--json'),
    ]);
    expect(human.stdout).toContain('valid until 2099-06-30T23:59:59Z (end of that day, UTC).');
    const { id, expires_at } = JSON.parse(json.stdout) as { id: string; expires_at: string };
    expect(expires_at).toBe('2099-06-30T23:59:59Z');
    const stored = await database.db
      .selectFrom('api_keys')
      .select('expires_at')
      .where('id', '=', id)
      .executeTakeFirst();
    expect(stored?.expires_at?.toISOString()).toBe('2099-06-30T23:59:59.000Z');
    // A time given keeps its own instant.
    const timed = await admin(...keysCreate('Timed', 'starter'), '--expires-at', '2099-06-30T12:00', '--json');
    expect(JSON.parse(timed.stdout)).toMatchObject({ expires_at: '2099-06-30T12:00:00Z' });
  });

  it('sets per-key numbers on enterprise keys only', async ({ expect }) => {
    const enterprise = await admin(
      ...keysCreate('Big Co', 'enterprise'),
      '--monthly-calls',
      '2000000',
      '--max-limit',
      '500',
      '--json',
    );
    expect(enterprise.code, enterprise.stderr).toBe(0);
    const { id } = JSON.parse(enterprise.stdout) as { id: string };
    const show = await admin('keys', 'show', id, '--json');
    expect(JSON.parse(show.stdout)).toMatchObject({ plan: 'enterprise', monthlyCalls: 2_000_000, maxLimit: 500 });
    expectOneLineError(await admin(...keysCreate('X', 'starter'), '--monthly-calls', '5'), /only .*enterprise/, expect);
  });

  it('makes an enterprise key unlimited only when told --unlimited', async ({ expect }) => {
    const unlimited = await admin(...keysCreate('Unlimited Co', 'enterprise'), '--unlimited', '--json');
    expect(unlimited.code, unlimited.stderr).toBe(0);
    const { id } = JSON.parse(unlimited.stdout) as { id: string };
    expect(JSON.parse((await admin('keys', 'show', id, '--json')).stdout)).toMatchObject({ monthlyCalls: null });
    const moved = await admin('keys', 'change-plan', id, '--plan', 'enterprise', '--monthly-calls', '5000');
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain('is now on enterprise: 5,000 calls a month');
    // Refused without a word: the key keeps its allowance.
    expectOneLineError(
      await admin('keys', 'change-plan', id, '--plan', 'enterprise', '--max-limit', '50'),
      /^quotes-admin: enterprise keys need --monthly-calls N \(calls a month\), or --unlimited for no monthly limit$/,
      expect,
    );
    expect(JSON.parse((await admin('keys', 'show', id, '--json')).stdout)).toMatchObject({ monthlyCalls: 5000 });
  });
});

describe.concurrent('quotes-admin browser origins', { timeout: 90_000 }, () => {
  it('sets them at creation (repeatable) and replaces them later', async ({ expect }) => {
    const created = await admin(
      ...keysCreate('Web app', 'starter'),
      '--allowed-origin',
      'https://app.example',
      '--allowed-origin',
      'http://localhost:*',
      '--json',
    );
    expect(created.code, created.stderr).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: string };
    const show = await admin('keys', 'show', id, '--json');
    expect(JSON.parse(show.stdout)).toMatchObject({ allowedOrigins: ['https://app.example', 'http://localhost:*'] });
    const set = await admin('keys', 'set-origins', id, 'HTTPS://Other.Example:443');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/origins\s+https:\/\/other\.example\n?/);
    const none = await admin('keys', 'set-origins', id, '--none');
    expect(none.stdout).toMatch(/origins\s+- \(no browser calls\)/);
    expectOneLineError(await admin('keys', 'set-origins', id), /--none/, expect);
    expectOneLineError(
      await admin(...keysCreate('X', 'starter'), '--allowed-origin', 'https://app.example/path'),
      /is not an origin/,
      expect,
    );
  });
});

describe.concurrent('quotes-admin usage and db', { timeout: 90_000 }, () => {
  it('reports every key for a month', async ({ expect }) => {
    const created = JSON.parse((await admin(...keysCreate('Reporter', 'platform'), '--json')).stdout) as {
      id: string;
      key: string;
    };
    await database.db
      .insertInto('monthly_usage')
      .values({ key_id: created.id, month: '2026-10-01', calls: 4213 })
      .execute();
    const report = await admin('usage', 'report', '--month', '2026-10');
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/^KEY +PREFIX +CLIENT +PLAN +STATE +CALLS /m);
    expect(report.stdout).toMatch(
      new RegExp(`^${created.id} +${created.key.slice(0, 11)} +Reporter +platform +active +4,213 +unlimited`, 'm'),
    );
    expect((await admin('keys', 'revoke', '--category', 'other', created.id)).code).toBe(0);
    const after = await admin('usage', 'report', '--month', '2026-10');
    expect(after.stdout).toMatch(new RegExp(`^${created.id} +qk_\\w{8} +Reporter +platform +revoked +4,213`, 'm'));
    const json = JSON.parse((await admin('usage', 'report', '--month', '2026-10', '--json')).stdout) as {
      keyId: string;
      calls: number;
      state: string;
    }[];
    expect(json.find((row) => row.keyId === created.id)).toMatchObject({ calls: 4213, state: 'revoked' });
  });

  it('migrates and reports migration status', async ({ expect }) => {
    const [migrate, status] = await Promise.all([admin('db', 'migrate'), admin('db', 'status')]);
    expect(migrate.stdout).toContain('Already up to date.');
    expect(status.stdout).toContain('20261123T0900_plans_keys_usage');
    expect(status.stdout).toContain('Up to date.');
  });
});

describe.concurrent('bad input: one line naming the problem, non-zero exit, no stack trace', () => {
  it.for<[string[], RegExp]>([
    [
      keysCreate('X', 'gold'),
      /^quotes-admin: --plan must be one of trial, starter, professional, platform, enterprise; got 'gold'$/,
    ],
    [[...keysCreate('X', 'starter'), '--expires-at', 'next tuesday'], /--expires-at must be an ISO 8601/],
    [[...keysCreate('X', 'enterprise'), '--max-limit', '5000'], /--max-limit must be a whole number from 1 to 1000/],
    [[...keysCreate('X', 'trial'), '--expires-at', '2099-01-01'], /at most 30 days/],
    [[...keysCreate('X', 'starter'), '--expires-at', '2020-01-01'], /must be in the future/],
    [[...keysCreate('X', 'starter'), '--email', 'not-an-email'], /not an e-mail address/],
    [['keys', 'show', 'k_doesnotexist'], /no key with id "k_doesnotexist"/],
    [['keys', 'renew', 'k_doesnotexist', '--until', '2030-01-01'], /no key with id/],
    [['keys', 'renew', 'k_x'], /--until/],
    [['usage', 'show', 'k_x', '--month', 'November'], /--month must be YYYY-MM/],
    [['keys', 'frobnicate'], /^quotes-admin: unknown command 'frobnicate'/],
    // Commander's own errors in the same style, naming the values allowed.
    [['corpus', 'import', 'quotes.csv'], /^quotes-admin: --mode is required: one of replace, append$/],
    [
      ['keys', 'list', '--status', 'gone'],
      /^quotes-admin: --status must be one of active, expired, revoked; got 'gone'$/,
    ],
    [['keys', 'create', '--plan', 'starter'], /^quotes-admin: --client is required$/],
    // An enterprise key's allowance is chosen in words, never by leaving --monthly-calls out.
    [keysCreate('X', 'enterprise'), /^quotes-admin: enterprise keys need --monthly-calls N .*or --unlimited/],
    [['keys', 'change-plan', 'k_x', '--plan', 'enterprise'], /enterprise keys need --monthly-calls N/],
    [
      [...keysCreate('X', 'starter'), '--unlimited'],
      /^quotes-admin: --unlimited is only for keys on the enterprise plan, not starter$/,
    ],
    [
      [...keysCreate('X', 'enterprise'), '--unlimited', '--monthly-calls', '5'],
      /--monthly-calls or --unlimited, not both/,
    ],
  ])('%j', async ([args, pattern], { expect }) => expectOneLineError(await admin(...args), pattern, expect));

  it('names a bad environment variable', async ({ expect }) => {
    expectOneLineError(await cli.run({ DATABASE_URL: 'mysql://nope' }, 'keys', 'list'), /DATABASE_URL/, expect);
  });
});

// What only a process shows: its exit status, and stdout holding the answer alone.
describe.concurrent('quotes-admin as a process of its own', { timeout: 90_000 }, () => {
  const inProcess = (...args: string[]) => cli.runProcess({ DATABASE_URL: database.url }, ...args);

  it('prints the new key alone on stdout and exits 0', async ({ expect }) => {
    const run = await inProcess(...keysCreate('Process Ltd', 'starter'), '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ key: expect.stringMatching(/^qk_/), plan: 'starter' });
  });

  it.for<[string[], number, RegExp]>([
    [keysCreate('X', 'gold'), 2, /--plan must be one of/],
    [['keys', 'show', 'k_doesnotexist'], 3, /no key with id "k_doesnotexist"/],
    [['keys', 'frobnicate'], 2, /unknown command 'frobnicate'/],
  ])('%j: its exit status and one line', async ([args, code, pattern], { expect }) => {
    const run = await inProcess(...args);
    expectOneLineError(run, pattern, expect);
    expect(run.code).toBe(code);
    expect(run.stdout).toBe('');
  });

  it('names a bad environment variable and exits 1', async ({ expect }) => {
    const run = await cli.runProcess({ DATABASE_URL: 'mysql://nope' }, 'keys', 'list');
    expectOneLineError(run, /DATABASE_URL/, expect);
    expect(run.code).toBe(1);
  });
});
