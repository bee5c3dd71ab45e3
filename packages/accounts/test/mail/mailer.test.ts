import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, MailError } from '../../src/mail/mailer.js';

// A server that accepts connections and never says a word: what a stuck mail relay looks like.
let silent: Server;
const sockets = new Set<Socket>();
let port: number;

beforeAll(async () => {
  silent = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  port = (silent.address() as { port: number }).port;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

describe('the mailer', () => {
  it('gives up on a silent mail server at its deadline with one line naming the recipient', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'keys@quotes.example.test',
      outboxDir: '/nonexistent',
      deadlineMs: 500,
    });
    const started = Date.now();
    try {
      const error = await mailer.send({ to: 'someone@example.test', subject: 's', text: 't' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MailError);
      expect(String((error as Error).message)).toMatch(/^mail to someone@example\.test/);
      expect((error as Error).message).not.toContain('\n');
      // Bounded by the deadline, not by the library's default of minutes.
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      mailer.close();
    }
  });

  it('names the destination without the credentials of the SMTP URL', () => {
    const mailer = createMailer({
      smtpUrl: 'smtps://user:secret@mail.example.test',
      from: 'a@b.test',
      outboxDir: '/x',
    });
    expect(mailer.destination).toBe('SMTP (mail.example.test:465)');
    mailer.close();
  });
});
