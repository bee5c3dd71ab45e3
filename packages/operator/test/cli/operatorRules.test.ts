import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { createOperatorApi } from '@quotes/accounts';
import { type AdminCli, buildAdminCli, expectOneLineError, keysCreate } from '../support/adminProcess.js';
import { startConsoleProcess } from '../support/consoleProcess.js';

let cli: AdminCli;
let database: TestDatabase;

beforeAll(async () => {
  [cli, database] = await Promise.all([buildAdminCli(), createTestDatabase()]);
});
afterAll(async () => {
  await database?.drop();
});

const admin = (...args: string[]) => cli.run({ DATABASE_URL: database.url }, ...args);

/** A key whose client is stored as given: what an older version, a script or another surface may have written. */
async function keyNamed(client: string): Promise<string> {
  const { id } = await createOperatorApi(database).createKey({ client: 'placeholder', plan: 'starter' });
  await database.db.updateTable('api_keys').set({ client }).where('id', '=', id).execute();
  return id;
}

// One command at a time: each is a process of its own, and the machine is shared.
describe('quotes-admin: one rule per input, one answer per refusal', { timeout: 300_000 }, () => {
  it('refuses a day that does not exist instead of rolling it over, in one line naming it', async () => {
    const { id } = await createOperatorApi(database).createKey({ client: 'Calendar Co', plan: 'starter' });
    const created = await admin(...keysCreate('Rolled Over', 'starter'), '--expires-at', '2027-02-30');
    const renewed = await admin('keys', 'renew', id, '--until', '2027-04-31T12:00:00Z', '--no-send');
    const history = await admin('usage', 'history', id, '--from', '2026-02-29');
    const audit = await admin('audit', 'list', '--since', '2026-13-01');
    expectOneLineError(created, /^quotes-admin: --expires-at 2027-02-30 is not a date: February 2027 has 28 days$/);
    expectOneLineError(renewed, /--until 2027-04-31T12:00:00Z is not a date-time: April 2027 has 30 days$/);
    expectOneLineError(history, /--from 2026-02-29 is not a date: February 2026 has 28 days$/);
    expectOneLineError(audit, /--since 2026-13-01 is not a date: a month is 01 to 12$/);
    for (const run of [created, renewed, history, audit]) expect(run.code).toBe(2);
    expect(await createOperatorApi(database).listKeys({ client: 'Rolled Over' })).toEqual([]);
    expect((await createOperatorApi(database).showKey(id)).expiresAt).toBeNull();
    // A day that exists, leap days included, is taken to its end.
    const leap = await admin('keys', 'renew', id, '--until', '2028-02-29', '--no-send');
    expect(leap.code, leap.stderr).toBe(0);
    expect((await createOperatorApi(database).showKey(id)).expiresAt).toBe('2028-02-29T23:59:59Z');
  });

  it('exits with the code of the refusal: 2 invalid, 3 not found, 4 conflict, 5 refused', async () => {
    const { id } = await createOperatorApi(database).createKey({ client: 'Exit Codes', plan: 'starter' });
    await createOperatorApi(database).revokeKey(id, 'for the test');
    await createOperatorApi(database).createKey({ client: 'Trial Taker', plan: 'trial', email: 'taker@example.com' });
    const invalid = await admin(...keysCreate('No Allowance', 'enterprise'));
    const badFlag = await admin(...keysCreate('X', 'gold'));
    const missing = await admin('keys', 'show', 'k_nosuchkey');
    const conflict = await admin('keys', 'revoke', '--category', 'other', id);
    const refused = await admin(...keysCreate('Trial Taker', 'trial'), '--email', 'taker@example.com');
    expectOneLineError(invalid, /enterprise keys need --monthly-calls N/);
    expectOneLineError(badFlag, /--plan must be one of/);
    expectOneLineError(missing, /no key with id "k_nosuchkey"/);
    expectOneLineError(conflict, /was already revoked/);
    expectOneLineError(refused, /refused: one trial per person and client/);
    expect([invalid.code, badFlag.code, missing.code, conflict.code, refused.code]).toEqual([2, 2, 3, 4, 5]);
  });

  it('shows bidirectional and other format characters as escapes in tables and lists', async () => {
    const reversed = await keyNamed('Evil\u202Ecorp\u2066x');
    const hidden = await keyNamed('Ad\u200Bmin\u2060Co\uFEFF\u00AD');
    const list = await admin('keys', 'list');
    const show = await admin('keys', 'show', hidden);
    const report = await admin('usage', 'report');
    for (const run of [list, show, report]) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).not.toMatch(/[\p{Cf}\u2028\u2029]/u);
    }
    expect(list.stdout).toContain('Evil\\u202ecorp\\u2066x');
    expect(list.stdout).toContain('Ad\\u200bmin\\u2060Co\\ufeff\\u00ad');
    expect(show.stdout).toContain('client       Ad\\u200bmin\\u2060Co\\ufeff\\u00ad');
    expect(report.stdout).toContain('Evil\\u202ecorp\\u2066x');
    // JSON stays JSON, with the names as stored.
    const json = await admin('keys', 'show', reversed, '--json');
    expect(JSON.parse(json.stdout).client).toBe('Evil\u202Ecorp\u2066x');
  });

  it('writes no spreadsheet formula into a billing CSV, and keeps the data as written', async () => {
    const clients = ['=HYPERLINK("http://attacker.example","x")', ' @SUM(1+1)', '\uFF1D1+1', '\t-2+3', 'Plain\u202ECo'];
    const ids = await Promise.all(clients.map(keyNamed));
    const run = await admin('usage', 'report', '--csv');
    expect(run.code, run.stderr).toBe(0);
    const rows = parse(run.stdout, { columns: true }) as Record<string, string>[];
    for (const row of rows)
      for (const cell of Object.values(row)) expect(cell).not.toMatch(/^\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r]/u);
    const byId = new Map(rows.map((row) => [row.key_id, row.client]));
    expect(ids.map((id) => byId.get(id))).toEqual([
      `'${clients[0]}`,
      `' @SUM(1+1)`,
      "'\uFF1D1+1",
      "'\t-2+3",
      // CSV is data: the override stays, to be seen in a spreadsheet as what it is.
      'Plain\u202ECo',
    ]);
  });

  it('keeps the console on loopback unless --allow-remote-insecure, and then warns as it starts', async () => {
    const refused = await admin('console', '--host', '0.0.0.0', '--port', '0');
    expectOneLineError(
      refused,
      /^quotes-admin: --host 0\.0\.0\.0 is not loopback: .*clear text.*--allow-remote-insecure/,
    );
    expect(refused.code).toBe(5);
    expect(refused.stdout).toBe('');

    const remote = await startConsoleProcess({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' }, 120_000, [
      '--host',
      '0.0.0.0',
      '--allow-remote-insecure',
    ]);
    try {
      expect(remote.stderr()).toMatch(
        /^quotes-admin: WARNING: the console listens on 0\.0\.0\.0, beyond loopback, over plain HTTP/,
      );
      expect(remote.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
    } finally {
      expect(await remote.stop('SIGTERM', 30_000)).toBe(0);
    }
  });
});
