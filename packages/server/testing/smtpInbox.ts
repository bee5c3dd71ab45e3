import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpInbox {
  /** smtp://127.0.0.1:PORT, for SMTP_URL. */
  readonly url: string;
  readonly messages: ParsedMail[];
  /** Resolves once `count` messages arrived in all; fails after `withinMs`. */
  waitFor(count: number, withinMs?: number): Promise<ParsedMail[]>;
  /** Holds the greeting of connections opened from now on until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

/** A real SMTP server that keeps every message it accepts, parsed; on a free port unless `port` is given. */
export async function startSmtpInbox(port = 0): Promise<SmtpInbox> {
  const messages: ParsedMail[] = [];
  const waiters = new Set<() => void>();
  let held: Promise<void> | undefined;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, accept) {
      if (held) void held.then(() => accept());
      else accept();
    },
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push(parsed);
          for (const wake of waiters) wake();
          done();
        })
        .catch((error: Error) => done(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const listening = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${listening}`,
    messages,
    waitFor(count, withinMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(messages.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${messages.length} of ${count} messages after ${withinMs} ms`));
        }, withinMs);
        waiters.add(check);
        check();
      });
    },
    hold() {
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      held = gate;
      return () => {
        if (held === gate) held = undefined;
        release();
      };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
