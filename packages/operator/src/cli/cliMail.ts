import { join } from 'node:path';
import type { Config } from '@quotes/service-base';
import { createMailer, type Delivery, type Mailer } from '@quotes/accounts';

/** The mailer the CLI's --send options use: SMTP_URL, else DATA_DIR/outbox. */
export function cliMailer(config: Config): Mailer {
  return createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, outboxDir: join(config.DATA_DIR, 'outbox') });
}

/** One line per message sent, saying where it went. */
export function deliveryLine(delivery: Delivery): string {
  return delivery.via === 'smtp'
    ? `Mailed ${delivery.to} (message ${delivery.messageId}).`
    : `No SMTP_URL set: wrote the message for ${delivery.to} to ${delivery.path}`;
}

/** Runs work with a mailer and closes it (its pooled connection) however the work ends. */
export async function withMailer<T>(config: Config, work: (mailer: Mailer) => Promise<T>): Promise<T> {
  const mailer = cliMailer(config);
  try {
    return await work(mailer);
  } finally {
    mailer.close();
  }
}
