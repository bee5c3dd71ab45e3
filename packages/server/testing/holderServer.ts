import type { IssuedKey, KeyRequestSettings } from '@quotes/accounts';
import type { Clock } from '@quotes/accounts/rules';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { RunningServer } from '../src/startServer.js';
import { AccountClient, csrfIn } from './accountClient.js';
import { loadFixtureCorpus } from './fixtureCorpus.js';
import { startServerMailingTo, unpacedPublicPages } from './keyRequestClient.js';
import { type SmtpInbox, startSmtpInbox } from './smtpInbox.js';

type RequestBounds = KeyRequestSettings['bounds'];

/**
 * The key requests' and sign-in links' hourly bounds far above what a holder test sends: every
 * holder signs in from 127.0.0.1, so the address and network bounds are their own tests'
 * (accountPages, floodBounds, mailBudget). A test names the bound it holds instead.
 */
export const wideRequestBounds: RequestBounds = {
  perAddressPerHour: 1000,
  perNetworkPerHour: 1000,
  perEmailPerHour: 1000,
  perHour: 10_000,
  maxOpen: 1000,
  unprovenMailsPerHour: 10_000,
};

export interface HolderServerOptions {
  clock?: Clock;
  /** The bounds this test holds, over wideRequestBounds. */
  bounds?: Partial<RequestBounds>;
  /** Settings of the test's own, beside the kit's (each named by the test, with why). */
  env?: Record<string, string>;
}

/** A key holder signed in on the holders' page: their keys, their browser, the first key's form token. */
export interface SignedInHolder {
  readonly keys: IssuedKey[];
  readonly key: IssuedKey;
  readonly client: AccountClient;
  readonly csrf: string;
}

export interface HolderTestServer {
  readonly database: TestDatabase;
  readonly inbox: SmtpInbox;
  readonly server: RunningServer;
  /** Issues `keys` keys of `plan` to `email` and signs them in by the mailed link, as a person does. */
  holder(email: string, options?: { keys?: number; plan?: string }): Promise<SignedInHolder>;
  close(): Promise<void>;
}

/**
 * The holders' pages' server: a fresh database with the fixture corpus, a real SMTP inbox, and
 * a server mailing to it, for one test file (beforeAll). Two of its settings are not as shipped,
 * each the subject of a test of its own that keeps it as shipped:
 * - the public pages' pace (unpacedPublicPages): a holder's page views and forms would wait on
 *   it, a tenth of a second each.
 * - the sign-in links' timer (1 to 2 s after the ask): each sign-in would wait on it;
 *   signInTiming.test.ts (timed) holds it and what it hides.
 */
export async function startHolderServer(options: HolderServerOptions = {}): Promise<HolderTestServer> {
  const [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
  let server: RunningServer | undefined;
  try {
    await loadFixtureCorpus(database);
    server = await startServerMailingTo(
      database,
      inbox,
      {
        clock: options.clock,
        keyRequests: { bounds: { ...wideRequestBounds, ...options.bounds } },
        signInMailDelayMs: 10,
      },
      { ...unpacedPublicPages, ...options.env },
    );
  } catch (error) {
    await inbox.close();
    await database.drop();
    throw error;
  }
  const running = server;
  return {
    database,
    inbox,
    server: running,
    async holder(email, { keys = 1, plan = 'starter' } = {}) {
      const issued: IssuedKey[] = [];
      for (let index = 0; index < keys; index++)
        issued.push(
          await running.operator.createKey({
            client: keys === 1 ? `App of ${email}` : `App ${index} of ${email}`,
            plan,
            email,
            allowAnotherTrial: true,
          }),
        );
      const client = new AccountClient(running.url);
      await client.signIn(inbox, email);
      const csrf = csrfIn((await client.get(`/account/keys/${issued[0]!.id}`)).text);
      return { keys: issued, key: issued[0]!, client, csrf };
    },
    async close() {
      await running.close();
      await inbox.close();
      await database.drop();
    },
  };
}
