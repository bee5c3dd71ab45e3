import { setUsage } from '@quotes/accounts/usage-override';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorApi, OperatorError, type OperatorApi } from '@quotes/accounts';
import { type AdminCli, buildAdminCli } from '../support/adminProcess.js';
import { insertPendingRequests } from '@quotes/server/testing';

// An action and its audit entry are one transaction. The audit insert is made to fail by a real
// trigger on this throwaway database (refusing the actions listed in a table): each action must
// then leave nothing changed. And the reverse: an action failing after its entry was written
// leaves no entry.
let database: TestDatabase;
let operator: OperatorApi;
let cli: AdminCli;
let dataDir: string;

beforeAll(async () => {
  [database, cli, dataDir] = await Promise.all([
    createTestDatabase(),
    buildAdminCli(),
    mkdtemp(join(tmpdir(), 'quotes-audit-atomic-')),
  ]);
  operator = createOperatorApi(database, { actor: 'test:atomicity' });
  await sql`CREATE TABLE refused_audit_actions (action text PRIMARY KEY)`.execute(database.db);
  await sql`
    CREATE FUNCTION refuse_listed_audit_actions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM refused_audit_actions WHERE action = NEW.action) THEN
        RAISE EXCEPTION 'audit refused for %', NEW.action;
      END IF;
      RETURN NEW;
    END $$`.execute(database.db);
  await sql`
    CREATE TRIGGER refuse_listed_audit_actions BEFORE INSERT ON operator_audit
    FOR EACH ROW EXECUTE FUNCTION refuse_listed_audit_actions()`.execute(database.db);
}, 120_000);
afterAll(async () => {
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function refuse(...actions: string[]): Promise<void> {
  await database.db.deleteFrom('refused_audit_actions' as never).execute();
  if (actions.length > 0)
    await database.db
      .insertInto('refused_audit_actions' as never)
      .values(actions.map((action) => ({ action })) as never)
      .execute();
}

async function entries(): Promise<number> {
  const row = await sql<{ n: string }>`SELECT count(*)::text AS n FROM operator_audit`.execute(database.db);
  return Number(row.rows[0]!.n);
}

/** The key's stored row: every column an action could change. */
const stored = (id: string) => database.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();

const admin = (...args: string[]) =>
  cli.run({ DATABASE_URL: database.url, DATA_DIR: dataDir, SMTP_URL: '', CORPUS_SIZE: '200' }, ...args);

describe('an operator action and its audit entry', () => {
  it('leave every key action undone when its entry cannot be written', async () => {
    await refuse();
    const key = await operator.createKey({ client: 'Atomic Ltd', plan: 'starter', email: 'ops@atomic.example' });
    const trial = await operator.createKey({ client: 'Atomic trial', plan: 'trial' });
    await refuse(
      'keys create',
      'keys revoke',
      'keys roll',
      'keys renew',
      'keys change-plan',
      'keys set-origins',
      'usage set',
    );
    const row = await stored(key.id);
    const trialRow = await stored(trial.id);
    const count = await entries();
    const refusals: [string, () => Promise<unknown>][] = [
      ['keys create', () => operator.createKey({ client: 'Never made', plan: 'starter' })],
      ['keys revoke', () => operator.revokeKey(key.id, 'abuse')],
      ['keys revoke', () => operator.revokeKeysOf({ email: 'ops@atomic.example' }, 'abuse')],
      ['keys roll', () => operator.rollKey(key.id)],
      ['keys renew', () => operator.renewKey(trial.id, new Date(Date.now() + 10 * 86_400_000))],
      ['keys change-plan', () => operator.changePlan(key.id, { plan: 'professional' })],
      ['keys set-origins', () => operator.setAllowedOrigins(key.id, ['https://app.example'])],
      ['usage set', () => setUsage(database, key.id, 9999, undefined, { actor: 'test:atomicity' })],
    ];
    for (const [action, attempt] of refusals) {
      const error = await attempt().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error, action).toBeInstanceOf(OperatorError);
      expect((error as Error).message).toMatch(new RegExp(`^${action} .* was not done: its audit entry could not`));
    }
    expect(await stored(key.id)).toEqual(row);
    expect(await stored(trial.id)).toEqual(trialRow);
    expect(await operator.listKeys({ client: 'Never made' })).toEqual([]);
    expect((await operator.usage(key.id)).calls).toBe(0);
    expect(await entries()).toBe(count);

    // With the audit writable again, the same actions are done and recorded, one entry each.
    await refuse();
    await operator.setAllowedOrigins(key.id, ['https://app.example']);
    await operator.revokeKey(key.id, 'abuse');
    expect((await stored(key.id))!.status).toBe('revoked');
    expect(await entries()).toBe(count + 2);
  });

  it('leaves a usage alert unclaimed and unrecorded when its mail fails after the entry was written', async () => {
    await refuse();
    const key = await operator.createKey({ client: 'Alerted', plan: 'starter', email: 'alerted@example.net' });
    await setUsage(database, key.id, 9000, undefined, { actor: 'test:atomicity' });
    const count = await entries();
    await expect(
      operator.sendUsageAlerts(undefined, async () => {
        throw new Error('mail server gone');
      }),
    ).rejects.toThrow('mail server gone');
    expect(await entries()).toBe(count);
    expect((await operator.usageAlerts()).find((alert) => alert.keyId === key.id)).toMatchObject({ sent: false });
    // The next run sends it, and records it once.
    const sent = await operator.sendUsageAlerts(undefined, async () => undefined);
    expect(sent.map((alert) => alert.keyId)).toContain(key.id);
    expect(await entries()).toBe(count + 1);
  });

  it('leaves a key request pending, and no key made, when approving or rejecting it cannot be recorded', async () => {
    await refuse('requests approve', 'requests reject');
    await insertPendingRequests(database, ['r_atomic1', 'r_atomic2'], { plan: 'starter', network: '127.0.40' });
    const count = await entries();
    const approve = await admin('requests', 'approve', 'r_atomic1', '--no-send');
    expect(approve.code).toBe(1);
    expect(approve.stderr).toMatch(/^quotes-admin: requests approve r_atomic1 was not done: its audit entry could not/);
    const reject = await admin(
      'requests',
      'reject',
      'r_atomic2',
      '--category',
      'other',
      '--reason',
      'not a real app',
      '--no-send',
    );
    expect(reject.code).toBe(1);
    expect(reject.stderr).toMatch(/^quotes-admin: requests reject r_atomic2 was not done/);
    const requests = await database.db.selectFrom('key_requests').select(['id', 'status', 'key_id']).execute();
    expect(requests.filter((request) => request.id.startsWith('r_atomic'))).toEqual([
      { id: 'r_atomic1', status: 'pending', key_id: null },
      { id: 'r_atomic2', status: 'pending', key_id: null },
    ]);
    // The key the approval created went with it, and so did its own entry.
    expect(await operator.listKeys({ client: 'Quotes app (Asker 0)' })).toEqual([]);
    expect(await entries()).toBe(count);

    await refuse();
    const approved = await admin('requests', 'approve', 'r_atomic1', '--no-send');
    expect(approved.stderr).toBe('');
    expect(approved.code).toBe(0);
    const actions = (await operator.auditTrail()).slice(-2).map((entry) => entry.action);
    expect(actions).toEqual(['keys create', 'requests approve']);
  }, 60_000);

  it('leaves the corpus as it was when a load cannot be recorded', async () => {
    await refuse();
    const first = await admin('corpus', 'generate', '--size', '150', '--yes');
    expect(first.code, first.stderr).toBe(0);
    const state = () => database.db.selectFrom('corpus_state').selectAll().executeTakeFirstOrThrow();
    const before = await state();
    const count = await entries();

    await refuse('corpus generate');
    const refused = await admin('corpus', 'generate', '--size', '120', '--seed', '3', '--yes');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/quotes-admin: .*corpus generate corpus was not done: its audit entry could not/);
    expect(await state()).toEqual(before);
    const quotes = await sql<{ n: string }>`SELECT count(*)::text AS n FROM quotes`.execute(database.db);
    expect(Number(quotes.rows[0]!.n)).toBe(150);
    expect(await entries()).toBe(count);

    await refuse();
    const loaded = await admin('corpus', 'generate', '--size', '120', '--seed', '3', '--yes');
    expect(loaded.code, loaded.stderr).toBe(0);
    const [entry] = (await operator.auditTrail()).slice(-1);
    expect(entry).toMatchObject({
      action: 'corpus generate',
      before: { version: before.version, size: 150 },
      after: { version: before.version + 1, size: 120 },
    });
  }, 120_000);
});
