import { afterAll, beforeAll, describe, it } from 'vitest';
import { type AdminCli, buildAdminCli, expectOneLineError } from '../support/adminProcess.js';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';

let cli: AdminCli;
let database: TestDatabase;

beforeAll(async () => {
  [cli, database] = await Promise.all([buildAdminCli(), createTestDatabase()]);
});
afterAll(async () => {
  await database?.drop();
  await cli?.remove();
});

/** The CLI as an operator runs it: its own process, the database named by DATABASE_URL. */
const admin = (...args: string[]) => cli.run({ DATABASE_URL: database.url }, ...args);

// Each command is its own process: slow when the whole suite shares two cores.
describe.concurrent('quotes-admin keys', { timeout: 90_000 }, () => {
  it('creates a key, shows it once, and manages it to the end', async ({ expect }) => {
    const created = await admin(
      'keys',
      'create',
      '--client',
      'Lanternfish Books',
      '--plan',
      'starter',
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
      admin('keys', 'create', '--client', 'Trial user', '--plan', 'trial'),
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

    const revoked = await admin('keys', 'revoke', id, '--reason', 'contract ended');
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain('contract ended');
    const again = await admin('keys', 'revoke', id);
    expectOneLineError(again, /already revoked/, expect);
    const renewRevoked = await admin('keys', 'renew', id, '--until', '2030-01-01');
    expectOneLineError(renewRevoked, /revoked/, expect);
  });

  it('renews an expired key', async ({ expect }) => {
    const created = await admin('keys', 'create', '--client', 'Expiring', '--plan', 'professional', '--json');
    const { id } = JSON.parse(created.stdout) as { id: string };
    // Expired as time would leave it (the CLI refuses an expiry in the past).
    await database.db
      .updateTable('api_keys')
      .set({ expires_at: new Date('2020-01-01T00:00:00Z') })
      .where('id', '=', id)
      .execute();
    expect((await admin('keys', 'show', id)).stdout).toMatch(/state\s+expired/);
    const renewed = await admin('keys', 'renew', id, '--until', '2099-12-31');
    expect(renewed.code, renewed.stderr).toBe(0);
    expect(renewed.stdout).toContain('until 2099-12-31T00:00:00Z; it is active');
  });

  it('sets per-key numbers on enterprise keys only', async ({ expect }) => {
    const enterprise = await admin(
      'keys',
      'create',
      '--client',
      'Big Co',
      '--plan',
      'enterprise',
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
    expectOneLineError(
      await admin('keys', 'create', '--client', 'X', '--plan', 'starter', '--monthly-calls', '5'),
      /only .*enterprise/,
      expect,
    );
  });
});

describe.concurrent('quotes-admin browser origins', { timeout: 90_000 }, () => {
  it('sets them at creation (repeatable) and replaces them later', async ({ expect }) => {
    const created = await admin(
      'keys',
      'create',
      '--client',
      'Web app',
      '--plan',
      'starter',
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
      await admin(
        'keys',
        'create',
        '--client',
        'X',
        '--plan',
        'starter',
        '--allowed-origin',
        'https://app.example/path',
      ),
      /is not an origin/,
      expect,
    );
  });
});

describe.concurrent('quotes-admin usage and db', { timeout: 90_000 }, () => {
  it('reports every key for a month', async ({ expect }) => {
    const created = JSON.parse(
      (await admin('keys', 'create', '--client', 'Reporter', '--plan', 'platform', '--json')).stdout,
    ) as { id: string };
    await database.db
      .insertInto('monthly_usage')
      .values({ key_id: created.id, month: '2026-10-01', calls: 4213 })
      .execute();
    const report = await admin('usage', 'report', '--month', '2026-10');
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/Reporter\s+platform\s+4,213\s+unlimited/);
    const json = JSON.parse((await admin('usage', 'report', '--month', '2026-10', '--json')).stdout) as {
      keyId: string;
      calls: number;
    }[];
    expect(json.find((row) => row.keyId === created.id)?.calls).toBe(4213);
  });

  it('migrates and reports migration status', async ({ expect }) => {
    const [migrate, status] = await Promise.all([admin('db', 'migrate'), admin('db', 'status')]);
    expect(migrate.stdout).toContain('Already up to date.');
    expect(status.stdout).toContain('20261123T0900_plans_keys_usage');
    expect(status.stdout).toContain('Up to date.');
  });
});

// Each case is its own process; they run side by side.
describe.concurrent('bad input: one line naming the problem, non-zero exit, no stack trace', () => {
  it.for<[string[], RegExp]>([
    [['keys', 'create', '--client', 'X', '--plan', 'gold'], /--plan.*gold|gold.*--plan|Allowed choices/i],
    [['keys', 'create', '--plan', 'starter'], /--client/],
    [
      ['keys', 'create', '--client', 'X', '--plan', 'starter', '--expires-at', 'next tuesday'],
      /--expires-at must be an ISO 8601/,
    ],
    [
      ['keys', 'create', '--client', 'X', '--plan', 'enterprise', '--max-limit', '5000'],
      /--max-limit must be a whole number from 1 to 1000/,
    ],
    [['keys', 'create', '--client', 'X', '--plan', 'trial', '--expires-at', '2099-01-01'], /at most 30 days/],
    [['keys', 'create', '--client', 'X', '--plan', 'starter', '--expires-at', '2020-01-01'], /must be in the future/],
    [['keys', 'create', '--client', 'X', '--plan', 'starter', '--email', 'not-an-email'], /not an e-mail address/],
    [['keys', 'show', 'k_doesnotexist'], /no key with id "k_doesnotexist"/],
    [['keys', 'renew', 'k_doesnotexist', '--until', '2030-01-01'], /no key with id/],
    [['keys', 'renew', 'k_x'], /--until/],
    [['usage', 'show', 'k_x', '--month', 'November'], /--month must be YYYY-MM/],
    [['keys', 'frobnicate'], /unknown command/],
  ])('%j', async ([args, pattern], { expect }) => {
    expectOneLineError(await admin(...args), pattern, expect);
  });

  it('names a bad environment variable', async ({ expect }) => {
    expectOneLineError(await cli.run({ DATABASE_URL: 'mysql://nope' }, 'keys', 'list'), /DATABASE_URL/, expect);
  });
});
