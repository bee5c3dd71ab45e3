import { createOperatorApi } from '@quotes/accounts';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountClient, csrfIn } from '../../testing/accountClient.js';
import { type ServiceProcess, startServiceProcess } from '../../testing/serviceProcess.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';

// A holder's requests on the service as `npm start` runs it: its own process from the build, the
// start script's flags, the database opened as main.ts opens it (generic plans). The answers and
// the queue are read from outside, as the holder and the operator see them.
describe("a holder's plan change and renewal, on the server as npm start runs it", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let inbox: SmtpInbox;
  let service: ServiceProcess;

  beforeAll(async () => {
    [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
    service = await startServiceProcess({ DATABASE_URL: database.url, SMTP_URL: inbox.url });
  });

  afterAll(async () => {
    service?.kill();
    await service?.exited;
    await inbox?.close();
    await database?.drop();
  });

  it('records each request in the operator queue, once', async () => {
    const operator = createOperatorApi(database);
    const email = 'holder@example.com';
    const starter = await operator.createKey({ client: 'Shipped app', plan: 'starter', email });
    const expiring = await operator.createKey({
      client: 'Shipped app, for a season',
      plan: 'starter',
      email,
      expiresAt: new Date(Date.now() + 20 * 86_400_000),
    });
    const client = new AccountClient(service.url);
    await client.signIn(inbox, email);
    const csrf = csrfIn((await client.get(`/account/keys/${starter.id}`)).text);

    const change = { _csrf: csrf, kind: 'plan-change', plan: 'professional', reason: 'More calls for the launch.' };
    const changed = await client.post(`/account/keys/${starter.id}/requests`, change);
    expect(changed.status, changed.text).toBe(303);
    const again = await client.post(`/account/keys/${starter.id}/requests`, change);
    expect(again.status, again.text).toBe(409);
    expect(again.text).toContain('already waiting');

    const renewal = { _csrf: csrf, kind: 'renewal', reason: 'Another season.' };
    const renewed = await client.post(`/account/keys/${expiring.id}/requests`, renewal);
    expect(renewed.status, renewed.text).toBe(303);

    const queued = await database.db
      .selectFrom('key_requests')
      .select(['kind', 'for_key_id', 'plan_id', 'status'])
      .where('for_key_id', 'in', [starter.id, expiring.id])
      .orderBy('kind')
      .execute();
    expect(queued).toEqual([
      { kind: 'plan-change', for_key_id: starter.id, plan_id: 'professional', status: 'pending' },
      { kind: 'renewal', for_key_id: expiring.id, plan_id: 'starter', status: 'pending' },
    ]);
    expect(service.stderr()).not.toMatch(/42P10|ON CONFLICT/);
  });
});
