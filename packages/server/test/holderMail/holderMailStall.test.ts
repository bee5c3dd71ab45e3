import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '@quotes/database/testing';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';
import { manualClock } from '../../testing/testServer.js';
import { holderMailDatabase, mailingServer, mailsTo } from './holderMailFixture.js';

// A mail server that accepts the connection and never answers (a stalled relay) must neither hold
// a server's shutdown nor keep the notice from its holder: the claim runs out and another sends it.

const clock = manualClock('2026-11-20T10:00:00Z');
let database: TestDatabase;
let inbox: SmtpInbox;

beforeAll(async () => {
  database = await holderMailDatabase();
  inbox = await startSmtpInbox();
}, 60_000);
afterAll(async () => {
  await inbox?.close();
  await database?.drop();
});

async function silentSmtp(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // It greets, then never answers: the send then waits on the mailer's idle deadline (20 s)
    // rather than its 10 s wait for a greeting, which a busy machine's close and second start
    // could outlast before the claim is looked at.
    socket.write('220 stalled.example ESMTP\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const noticeOf = async (keyId: string) =>
  (
    await sql<{
      state: string;
      attempts: number;
    }>`SELECT state, attempts FROM holder_notices WHERE key_id = ${keyId}`.execute(database.db)
  ).rows;

describe('mail to a key holder through a stalled mail server', { timeout: 90_000 }, () => {
  it('lets the server close within its bound, and another server sends the notice once the claim runs out', async () => {
    const stalled = await silentSmtp();
    const email = 'stalled@example.com';
    const stuck = await mailingServer(database, clock, stalled.url, undefined, 20_000);
    const key = await stuck.operator.createKey({ client: 'Stalled app', plan: 'starter', email });
    await stuck.operator.revokeKey(key.id, 'test');
    const sweep = stuck.sweepHolderMail();
    while ((await noticeOf(key.id))[0]?.state !== 'sending') await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await stuck.close();
    expect(Date.now() - started).toBeLessThan(8000);

    // The stuck send is still under way (its deadline is 20 s), as if its process had died.
    const other = await mailingServer(database, clock, inbox.url);
    try {
      // Held by the stuck server's claim until its lease (2 minutes) ends; then sent once.
      expect(await other.sweepHolderMail()).toMatchObject({ sent: 0 });
      expect(await noticeOf(key.id)).toEqual([{ state: 'sending', attempts: 1 }]);
      clock.advance(121_000);
      expect(await other.sweepHolderMail()).toMatchObject({ sent: 1 });
      // The stuck sender's end (its send fails at its deadline) no longer changes the notice.
      await sweep;
      await stalled.close();
      expect(await noticeOf(key.id)).toEqual([{ state: 'sent', attempts: 2 }]);
      expect(await other.sweepHolderMail()).toMatchObject({ sent: 0 });
      expect(await mailsTo(inbox, email)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
