import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorApi, type OperatorApi } from '@quotes/accounts';
import { type RunningConsole, startConsole } from '../../src/console/consoleServer.js';

// A roll in the console while a holder's grace runs (decision 0049): the console says what the
// holder's page says of the same roll, over real HTTP.
let database: TestDatabase;
let operator: OperatorApi;
let running: RunningConsole;
let cookie: string;
let csrf: string;

async function get(path: string): Promise<{ status: number; body: string }> {
  const answer = await fetch(`${running.url}${path}`, { headers: { cookie }, redirect: 'manual' });
  return { status: answer.status, body: await answer.text() };
}

async function post(path: string, form: Record<string, string>): Promise<{ status: number; body: string }> {
  const answer = await fetch(`${running.url}${path}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...form, _csrf: csrf }),
    redirect: 'manual',
  });
  return { status: answer.status, body: await answer.text() };
}

beforeAll(async () => {
  database = await createTestDatabase();
  operator = createOperatorApi(database);
  running = await startConsole({ database, host: '127.0.0.1', port: 0 });
  const signIn = await fetch(running.signInUrl, { redirect: 'manual' });
  cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
  csrf = /name="_csrf" value="([^"]+)"/.exec((await get('/')).body)![1]!;
}, 60_000);
afterAll(async () => {
  await running?.close();
  await database?.drop();
});

describe('a roll in the console during a running grace', () => {
  it('says the secret it replaced is refused and the one before it works until its grace ends', async () => {
    const created = await operator.createKey({ client: 'Grace Co', plan: 'starter', email: 'grace@example.com' });
    // The holder rolled with an hour's grace: the first secret works until then.
    const byHolder = await operator.rollKey(created.id, { graceMs: 3_600_000 });
    const until = byHolder.previousSecretUntil!;
    expect(until).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

    const page = (await get(`/keys/${created.id}`)).body;
    expect(page).toContain(`${byHolder.prefix}...; the secret before it works until ${until}`);
    const confirm = await get(`/keys/${created.id}/confirm/roll`);
    expect(confirm.body).toContain(
      `The current one (${byHolder.prefix}...) is refused from then on; the one before it keeps working until ${until}, the end of its grace; the new one is shown once`,
    );

    const rolled = await post(`/keys/${created.id}/actions/roll`, {});
    expect(rolled.status).toBe(200);
    const status = /<p class="notice done" role="status">([^<]*)<\/p>/.exec(rolled.body)?.[1];
    // The holder's page's words for the same roll (account-pages' rolledPage), from the same function.
    expect(status).toBe(
      `The secret it replaced is refused from now on; the one before it keeps working until ${until}, the end of its grace. Hand this new key to the customer: it is shown only here, once.`,
    );
    expect((await operator.showKey(created.id)).previousSecretUntil).toBe(until);
  });

  it('says only that the old secret is refused when no grace runs', async () => {
    const created = await operator.createKey({ client: 'Plain Co', plan: 'starter' });
    const rolled = await post(`/keys/${created.id}/actions/roll`, {});
    expect(/<p class="notice done" role="status">([^<]*)<\/p>/.exec(rolled.body)?.[1]).toBe(
      'The secret it replaced is refused from now on. Hand this new key to the customer: it is shown only here, once.',
    );
  });
});
