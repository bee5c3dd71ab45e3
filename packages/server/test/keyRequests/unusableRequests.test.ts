import { describe, expect, it } from 'vitest';
import { systemClock } from '@quotes/accounts';
import { createKeyRequestService, tokenHash } from '@quotes/accounts';
import { silentLogger } from '@quotes/service-base';
import { createMailer } from '@quotes/accounts';
import { createOperatorApi } from '@quotes/accounts';
import { mailTo } from '../../testing/keyRequestClient.js';
import { pressConfirm, keyRequestService } from './confirmationLinks.js';

// Requests kept before the form refused what the operator's tools refuse (a right-to-left
// override in the application, a line separator in the name): confirming one ends it, rejected
// with the reason, and the operator is told what to do with one already pending. None is left
// pending for nobody.
const running = keyRequestService();

/** A request stored as the form used to store it, with a token the test knows. */
async function storedRequest(
  id: string,
  fields: { name?: string; application?: string; status: 'unconfirmed' | 'pending' },
): Promise<string> {
  const token = `token${id.replace(/[^A-Za-z0-9]/g, '')}`;
  await running.database.db
    .insertInto('key_requests')
    .values({
      id,
      email: `${id}@example.com`,
      name: fields.name ?? 'Ann Lee',
      application: fields.application ?? 'Quotes app',
      plan_id: 'trial',
      use: 'a daily quote',
      client_address: '127.60.0.1',
      client_network: '127.60.0.0/24',
      status: fields.status,
      token_hash: fields.status === 'unconfirmed' ? tokenHash(token) : null,
      token_expires_at: new Date(Date.now() + 86_400_000),
      created_at: new Date(),
      confirmed_at: fields.status === 'pending' ? new Date() : null,
    })
    .execute();
  return token;
}

const rowOf = (id: string) =>
  running.database.db.selectFrom('key_requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('a stored request whose text no later step accepts', { timeout: 30_000 }, () => {
  it.for<[string, { name?: string; application?: string }, RegExp]>([
    [
      'r_rlo',
      { application: 'Quotes \u202Eppa.exe' },
      /the application contains a bidirectional control character \(U\+202E\)/,
    ],
    ['r_ls', { name: 'Ann\u2028Lee' }, /the name contains a line or paragraph separator character \(U\+2028\)/],
  ])('is ended at its confirmation (%s): rejected, with the reason, and said so', async ([id, fields, reason]) => {
    const token = await storedRequest(id, { ...fields, status: 'unconfirmed' });
    const answer = await pressConfirm(running.server.url, token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.text).toContain('Request not accepted');
    expect(answer.text).toMatch(reason);
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'rejected', token_hash: null, key_id: null });
    expect(row.rejection_reason).toMatch(reason);
    // The reason names the field and the character, never the text itself.
    expect(row.rejection_reason).not.toContain((fields.application ?? fields.name)!);
    const audited = await running.database.db
      .selectFrom('operator_audit')
      .select(['actor', 'action'])
      .where('target', '=', id)
      .execute();
    expect(audited).toEqual([{ actor: 'service:key-requests', action: 'requests reject' }]);
    // The link is used: a second press finds nothing.
    expect((await pressConfirm(running.server.url, token)).status).toBe(404);
  });

  it('already pending: approve says why in one line and what to do; reject ends it and mails the person', async () => {
    await storedRequest('r_pending_rlo', { application: 'Quotes \u202Eppa.exe', status: 'pending' });
    // The request service as the CLI builds it.
    const mailer = createMailer({
      smtpUrl: running.inbox.url,
      from: 'Keys <keys@quotes.example.test>',
      outboxDir: '/nonexistent',
    });
    const service = createKeyRequestService(
      running.database,
      createOperatorApi(running.database),
      {
        mailer,
        publicBaseUrl: running.server.url,
        bounds: {
          perAddressPerHour: 5,
          perNetworkPerHour: 10,
          perEmailPerHour: 3,
          perHour: 200,
          maxOpen: 1000,
          unprovenMailsPerHour: 300,
        },
      },
      systemClock,
      silentLogger,
    );
    try {
      const refusal = await service.approve('r_pending_rlo', { send: false }).then(
        () => undefined,
        (error: Error) => error.message,
      );
      expect(refusal).toMatch(
        /^request r_pending_rlo cannot become a key: the application contains a bidirectional control character \(U\+202E\).*; reject it \(requests reject r_pending_rlo\)$/,
      );
      expect(refusal).not.toContain('\u202E');
      expect((await rowOf('r_pending_rlo')).status).toBe('pending');
      await service.reject('r_pending_rlo', {
        category: 'request-unusable',
        reason: 'the application holds a right-to-left override',
      });
      expect(await rowOf('r_pending_rlo')).toMatchObject({ status: 'rejected' });
      await mailTo(running.inbox, 'r_pending_rlo@example.com', /Quote Retrieval Service API key/);
    } finally {
      mailer.close();
    }
  });
});
