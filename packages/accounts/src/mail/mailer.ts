import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

/** One message to one address, plain text with an optional HTML alternative; the sender comes from MAIL_FROM. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
}

export type Delivery =
  | { readonly via: 'smtp'; readonly to: string; readonly messageId: string }
  | { readonly via: 'outbox'; readonly to: string; readonly path: string };

export interface Mailer {
  /** 'SMTP (host:port)' or 'the outbox (DIR)': said once by commands that send. */
  readonly destination: string;
  send(message: MailMessage): Promise<Delivery>;
  close(): void;
}

export interface MailSettings {
  /** smtp:// or smtps:// with optional credentials; absent: write .eml files to outboxDir. */
  readonly smtpUrl?: string;
  readonly from: string;
  readonly outboxDir: string;
  /** Upper bound on one message, connection included (default 30 s). */
  readonly deadlineMs?: number;
}

/** A failure to send: reported as one line naming the recipient, never the SMTP URL (it may hold a password). */
export class MailError extends Error {
  override name = 'MailError';
}

function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new MailError(`${what}: no answer from the mail server within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

function smtpMailer(settings: MailSettings & { smtpUrl: string }, deadlineMs: number): Mailer {
  const url = new URL(settings.smtpUrl);
  // One pooled connection reused for a whole run (a terms notice to every owner); each wait of
  // the SMTP dialogue has its own timeout inside the overall deadline per message.
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: 1,
    url: settings.smtpUrl,
    connectionTimeout: Math.min(10_000, deadlineMs),
    greetingTimeout: Math.min(10_000, deadlineMs),
    socketTimeout: Math.min(20_000, deadlineMs),
    dnsTimeout: Math.min(10_000, deadlineMs),
  });
  return {
    destination: `SMTP (${url.hostname}:${url.port || (url.protocol === 'smtps:' ? '465' : '587')})`,
    async send(message) {
      try {
        const info = await withDeadline(
          transport.sendMail({
            from: settings.from,
            to: message.to,
            subject: message.subject,
            text: message.text,
            ...(message.html === undefined ? {} : { html: message.html }),
          }),
          deadlineMs,
          `mail to ${message.to}`,
        );
        return { via: 'smtp', to: message.to, messageId: String(info.messageId) };
      } catch (error) {
        if (error instanceof MailError) throw error;
        const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
        throw new MailError(`mail to ${message.to} failed: ${reason}`);
      }
    },
    close: () => transport.close(),
  };
}

function outboxMailer(settings: MailSettings): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    destination: `the outbox (${settings.outboxDir})`,
    async send(message) {
      const info = await transport.sendMail({
        from: settings.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html === undefined ? {} : { html: message.html }),
      });
      // Messages may carry a key: the folder and the files are the operator's only.
      await mkdir(settings.outboxDir, { recursive: true, mode: 0o700 });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const path = join(settings.outboxDir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(path, info.message as Buffer, { mode: 0o600 });
      return { via: 'outbox', to: message.to, path };
    },
    close: () => transport.close(),
  };
}

/** SMTP when a URL is configured, else the outbox: development needs no mail server. */
export function createMailer(settings: MailSettings): Mailer {
  const deadlineMs = settings.deadlineMs ?? 30_000;
  return settings.smtpUrl ? smtpMailer({ ...settings, smtpUrl: settings.smtpUrl }, deadlineMs) : outboxMailer(settings);
}
