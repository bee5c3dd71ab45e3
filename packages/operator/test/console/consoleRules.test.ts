import { setUsage } from '@quotes/accounts/usage-override';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningConsole, startConsole } from '../../src/console/consoleServer.js';
import { type ConsoleSession, signIntoConsole } from '../support/consoleSession.js';
import { createOperatorApi, type OperatorApi } from '@quotes/accounts';

let database: TestDatabase;
let operator: OperatorApi;
let running: RunningConsole;
let session: ConsoleSession;
const logged: string[] = [];

/** A page of the console over real HTTP, as the signed-in session. */
const get = (path: string) => session.get(path);
const post = (path: string, form: Record<string, string>) => session.post(path, form);

/** The text of the page's alert, as the browser shows it. */
const alertOf = (body: string) =>
  /<p class="notice error" role="alert">([^<]*)<\/p>/
    .exec(body)?.[1]
    ?.replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'");

beforeAll(async () => {
  database = await createTestDatabase();
  operator = createOperatorApi(database);
  running = await startConsole({ database, host: '127.0.0.1', port: 0, log: (line) => logged.push(line) });
  session = await signIntoConsole(running);
}, 60_000);
afterAll(async () => {
  await running?.close();
  await database?.drop();
});

describe('the console’s date rule', () => {
  it('refuses a renewal to a day that does not exist, on the confirm step and on the form sent', async () => {
    const { id } = await operator.createKey({ client: 'Calendar Co', plan: 'starter' });
    const confirm = await get(`/keys/${id}/confirm/renew?until=2027-02-30`);
    expect(confirm.status).toBe(400);
    expect(alertOf(confirm.body)).toBe(
      'until: 2027-02-30 is not a date: February 2027 has 28 days (the key runs to the end of that day, UTC)',
    );
    expect(confirm.body).not.toContain('to the end of 2027-02-30');
    expect(confirm.body).not.toContain('Confirm: renew');
    // The form is there again, with the value to correct.
    expect(confirm.body).toContain('name="until" required value="2027-02-30"');

    const sent = await post(`/keys/${id}/actions/renew`, { until: '2027-02-30' });
    expect(sent.status).toBe(400);
    expect(alertOf(sent.body)).toMatch(/^until: 2027-02-30 is not a date/);
    expect((await operator.showKey(id)).expiresAt).toBeNull();

    const good = await get(`/keys/${id}/confirm/renew?until=2028-02-29`);
    expect(good.status).toBe(200);
    expect(good.body).toContain('to the end of 2028-02-29 (UTC)?');
    expect((await post(`/keys/${id}/actions/renew`, { until: '2028-02-29' })).status).toBe(303);
    expect((await operator.showKey(id)).expiresAt).toBe('2028-02-29T23:59:59Z');
  });
});

describe('the console’s allowance rule', () => {
  it('refuses an enterprise plan without monthly calls, as the CLI does, and takes "unlimited" said out loud', async () => {
    const { id } = await operator.createKey({ client: 'Allowance Co', plan: 'starter' });
    const confirm = await get(`/keys/${id}/confirm/change-plan?plan=enterprise&monthlyCalls=`);
    expect(confirm.status).toBe(400);
    expect(alertOf(confirm.body)).toBe(
      'enterprise keys need "monthly calls" N (calls a month), or "unlimited" for no monthly limit',
    );
    const sent = await post(`/keys/${id}/actions/change-plan`, { plan: 'enterprise', monthlyCalls: '' });
    expect(sent.status).toBe(400);
    expect(await operator.showKey(id)).toMatchObject({ plan: 'starter', monthlyCalls: 10_000 });

    const both = await get(`/keys/${id}/confirm/change-plan?plan=enterprise&monthlyCalls=5&unlimited=yes`);
    expect(alertOf(both.body)).toBe('give "monthly calls" or "unlimited", not both');
    const unlimited = await get(`/keys/${id}/confirm/change-plan?plan=enterprise&unlimited=yes`);
    expect(unlimited.status).toBe(200);
    expect(unlimited.body).toContain('to enterprise with unlimited calls a month?');
    expect((await post(`/keys/${id}/actions/change-plan`, { plan: 'enterprise', monthlyCalls: '5000' })).status).toBe(
      303,
    );
    expect(await operator.showKey(id)).toMatchObject({ plan: 'enterprise', monthlyCalls: 5000 });
  });
});

describe('the console’s answer to each kind of refusal', () => {
  it('answers not found 404, invalid 400, conflict 409, refused 403, each with its message', async () => {
    const { id } = await operator.createKey({ client: 'Answers Co', plan: 'starter', email: 'answers@example.com' });
    await operator.revokeKey(id, 'for the test');
    const missing = await get('/keys/k_nosuchkey');
    expect(missing.status).toBe(404);
    expect(alertOf(missing.body)).toBe('no key with id "k_nosuchkey" (see: keys list)');

    const conflict = await post(`/keys/${id}/actions/revoke`, { category: 'abuse', reason: 'again' });
    expect(conflict.status).toBe(409);
    expect(alertOf(conflict.body)).toMatch(new RegExp(`^key ${id} was already revoked on `));

    await operator.createKey({ client: 'Trial One', plan: 'trial', email: 'twice@example.com' });
    const second = await operator.createKey({ client: 'Trial Two', plan: 'starter', email: 'twice@example.com' });
    const refused = await post(`/keys/${second.id}/actions/change-plan`, { plan: 'trial' });
    expect(refused.status).toBe(403);
    expect(alertOf(refused.body)).toMatch(/^refused: one trial per person and client/);

    // The search's values go through the operator's own rules, which name the field.
    const search = await get('/keys?plan=gold&state=lost&page=0');
    expect(search.status).toBe(400);
    expect(alertOf(search.body)).toBe(
      'plan must be one of trial, starter, professional, platform, enterprise, got "gold"; ' +
        'state must be one of active, expired, revoked, got "lost"; ' +
        'page must be a whole number from 1 to 999999, got "0"',
    );
    expect((await get('/audit?page=x')).status).toBe(400);
  });
});

describe('text shown to the operator', () => {
  it('shows bidirectional overrides and other format characters as escapes, never acting', async () => {
    const { id } = await operator.createKey({ client: 'placeholder', plan: 'starter' });
    // Stored as another surface or an older version may have written it.
    await database.db.updateTable('api_keys').set({ client: 'Evil\u202Ecorp\u200B' }).where('id', '=', id).execute();
    // At its allowance, so the overview lists it too.
    await setUsage(database, id, 10_000);
    for (const path of ['/keys', `/keys/${id}`, '/', `/keys/${id}/confirm/revoke?category=abuse`]) {
      const page = await get(path);
      expect(page.status, path).toBe(200);
      expect(page.body, path).not.toMatch(/[\p{Cf}\u2028\u2029]/u);
      expect(page.body, path).toContain('Evil\\u202ecorp\\u200b');
    }
  });
});

describe('the console’s address', () => {
  it('stays on loopback unless told, and then warns at every start', async () => {
    await expect(startConsole({ database, host: '0.0.0.0', port: 0 })).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/^--host 0\.0\.0\.0 is not loopback: .*clear text.*--allow-remote-insecure/),
    });
    for (const host of ['127.0.0.1', '::1', 'localhost', '127.0.0.2']) {
      const lines: string[] = [];
      const local = await startConsole({ database, host, port: 0, log: (line) => lines.push(line) });
      await local.close();
      expect(lines, host).toEqual([]);
    }
    for (let start = 0; start < 2; start++) {
      const lines: string[] = [];
      const remote = await startConsole({
        database,
        host: '0.0.0.0',
        port: 0,
        allowRemoteInsecure: true,
        log: (line) => lines.push(line),
      });
      try {
        expect(lines).toEqual([expect.stringMatching(/^quotes-admin: WARNING: .*0\.0\.0\.0.*clear text/)]);
        // Reached here through loopback only.
        const port = new URL(remote.url).port;
        expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(401);
      } finally {
        await remote.close();
      }
    }
  });
});
