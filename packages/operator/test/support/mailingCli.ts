import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { RunningServer } from '@quotes/server';
import { loadFixtureCorpus, type SmtpInbox, startServerMailingTo, startSmtpInbox } from '@quotes/server/testing';
import { type AdminCli, buildAdminCli, type Run } from './adminProcess.js';

/** What a file of the operator's mailing CLI tests works on, ready once its beforeAll ran. */
export interface MailingCli {
  readonly database: TestDatabase;
  readonly inbox: SmtpInbox;
  /** A real server on `database` with the fixture corpus, mailing through `inbox`. */
  readonly server: RunningServer;
  /** quotes-admin with the mail settings `npm start`'s operator has, on this file's database and server. */
  admin(...args: string[]): Promise<Run>;
}

/**
 * The CLI test kit for decisions that mail: a fresh database with the fixture corpus, a real SMTP
 * server, a real server mailing through it, and the CLI configured to mail through it too. Call it
 * at a file's top level: it adds the file's beforeAll and afterAll. `operatorEmail` is the
 * OPERATOR_EMAIL the CLI gets, where the file's tests need the operator's own address.
 */
export function mailingCli(options: { operatorEmail?: string } = {}): MailingCli {
  let cli: AdminCli;
  let database: TestDatabase | undefined;
  let inbox: SmtpInbox | undefined;
  let server: RunningServer | undefined;
  beforeAll(async () => {
    [cli, database, inbox] = await Promise.all([buildAdminCli(), createTestDatabase(), startSmtpInbox()]);
    await loadFixtureCorpus(database);
    server = await startServerMailingTo(database, inbox);
  });
  afterAll(async () => {
    await server?.close();
    await inbox?.close();
    await database?.drop();
  });
  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`mailingCli: ${name} is used before the file's beforeAll ran`);
    return value;
  };
  return {
    get database() {
      return ready(database, 'database');
    },
    get inbox() {
      return ready(inbox, 'inbox');
    },
    get server() {
      return ready(server, 'server');
    },
    admin: (...args) =>
      cli.run(
        {
          DATABASE_URL: ready(database, 'database').url,
          SMTP_URL: ready(inbox, 'inbox').url,
          MAIL_FROM: 'Keys <keys@quotes.example.test>',
          PUBLIC_BASE_URL: ready(server, 'server').url,
          ...(options.operatorEmail ? { OPERATOR_EMAIL: options.operatorEmail } : {}),
        },
        ...args,
      ),
  };
}
