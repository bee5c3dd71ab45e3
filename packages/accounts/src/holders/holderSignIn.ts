import type { Kysely } from 'kysely';
import type { Database } from '@quotes/database';
import { newSecret, secretDigest, type Logger } from '@quotes/service-base';
import { deleteSession, insertSession, touchSession } from '../data/accountSessions.js';
import { admitSignIn, claimSignIn, liveSignIn, type SignInAdmission } from '../data/accountSignIns.js';
import type { RequestBounds } from '../data/keyRequests.js';
import { clientNetworkOf } from '../domain/clientNetwork.js';
import type { Clock } from '../domain/clock.js';
import type { Mailer } from '../mail/mailer.js';
import { holderActorOf } from '../operator/operatorActor.js';
import { signInMessage } from '../mail/accountMessages.js';
import { requireEmail } from '../operator/operatorInput.js';

/** How long a mailed sign-in link works. */
export const signInValidMinutes = 15;
/** How long a holder's session lasts, whatever it does (the cookie's Max-Age). */
export const holderSessionLifetimeMs = 12 * 3_600_000;
/** A session unused this long is signed out. */
export const holderSessionIdleMs = 30 * 60_000;

export interface HolderSettings {
  /** Where links in mail point (PUBLIC_BASE_URL, else the listening address): never the request's Host. */
  readonly publicBaseUrl: string;
  readonly mailer: Mailer;
  /** The key requests' hourly bounds: a sign-in link is counted the same way, in a table of its own. */
  readonly bounds: RequestBounds;
  readonly trustProxy?: readonly string[];
  /** A key changed by a holder: this process's servers forget it at once rather than at the NOTIFY. */
  readonly onKeyChanged?: (keyId: string) => void;
  /** A request started waiting for the operator: the server's notice to the operator is swept soon. */
  readonly onRequestWaiting?: () => void;
  /**
   * The sign-in links' timer (signInMailDelayMs unless given): tests that are not about the
   * timing shorten it, so a sign-in costs them milliseconds rather than one to two seconds.
   */
  readonly signInMailDelayMs?: number;
}

/** A signed-in holder: the person (canonical address) whose keys they see. */
export interface HolderSession {
  readonly emailCanonical: string;
  readonly csrfToken: string;
  /**
   * Who acts, as the audit records it: `holder:` and the first 16 hex digits of the SHA-256 of
   * the canonical address. Stable per person, it links a holder's actions without writing the
   * address into the actor column.
   */
  readonly actor: string;
}

export { holderActorOf };

const tokenHashOf = (token: string): Buffer => secretDigest(token);

/**
 * A sign-in link is mailed on a timer of its own, one to two of these after it was asked for,
 * never right after the answer: the request that follows, which comes sooner, never waits for
 * the look-up and the mail, so its time cannot tell whether the address held a key.
 */
export const signInMailDelayMs = 1000;

/** The sign-in by mailed link and the sessions of the holders' page. */
export function holderSignIn(database: { db: Kysely<Database> }, settings: HolderSettings, clock: Clock, log: Logger) {
  const { db } = database;
  const baseUrl = () => settings.publicBaseUrl.replace(/\/+$/, '');
  /** Links asked for and not yet looked up and mailed, oldest first. */
  let queued: { emailCanonical: string; token: string; at: number }[] = [];
  let draining: Promise<void> | undefined;

  /**
   * Looks for the address's keys and mails the link to the address the newest of them was
   * issued to. The link goes to a key's own address, never to the one typed, so an address that
   * only compares equal (`ann+x@` for `ann@`) gets nothing.
   */
  async function mailLink(emailCanonical: string, token: string): Promise<void> {
    try {
      const newest = await db
        .selectFrom('api_keys')
        .select('email')
        .where('email_canonical', '=', emailCanonical)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      if (!newest?.email) return;
      await settings.mailer.send(
        signInMessage(newest.email, `${baseUrl()}/account/sign-in?token=${token}`, signInValidMinutes),
      );
    } catch (error) {
      log.error({ err: error }, "a holder's sign-in link could not be mailed");
    }
  }

  /** Mails the links asked for at least `minAgeMs` ago, one after another (a flood's links wait here, not on requests). */
  function drain(minAgeMs: number): Promise<void> {
    draining ??= (async () => {
      for (;;) {
        const due = performance.now() - minAgeMs;
        const ready = queued.filter((link) => link.at <= due);
        if (ready.length === 0) return;
        queued = queued.slice(ready.length);
        for (const link of ready) await mailLink(link.emailCanonical, link.token);
      }
    })().finally(() => {
      draining = undefined;
    });
    return draining;
  }
  const delayMs = settings.signInMailDelayMs ?? signInMailDelayMs;
  const timer = setInterval(() => void drain(delayMs), delayMs);
  timer.unref();

  return {
    /** Records a link for the address unless a bound refuses (an invalid address throws OperatorError). */
    async requestSignIn(email: string, clientAddress: string): Promise<SignInAdmission> {
      const address = requireEmail(email, 'address');
      const now = clock();
      const network = clientNetworkOf(clientAddress);
      const token = newSecret();
      const admission = await admitSignIn(
        db,
        {
          clientAddress: network.address,
          clientNetwork: network.network,
          clientSite: network.site,
          email: address,
          tokenHash: tokenHashOf(token),
          expiresAt: new Date(now.getTime() + signInValidMinutes * 60_000),
        },
        settings.bounds,
        now,
      );
      if (admission.admitted) {
        const canonical = await db
          .selectNoFrom((eb) => eb.fn<string>('canonical_email', [eb.val(address)]).as('canonical'))
          .executeTakeFirstOrThrow();
        queued.push({ emailCanonical: canonical.canonical, token, at: performance.now() });
      }
      return admission;
    },

    /** Stops the timer and mails what is queued: resolves when every link has been handed over or failed. */
    async close(): Promise<void> {
      clearInterval(timer);
      while (queued.length > 0 || draining) await drain(0);
    },

    /** Whether a link still signs in (the page with the button); the link stays unused. */
    linkLive(token: string): Promise<boolean> {
      return liveSignIn(db, tokenHashOf(token), clock());
    },

    /** Uses a link, once: a new session's cookie, or undefined for an unknown, used or expired link. */
    async signIn(token: string): Promise<{ cookie: string; session: HolderSession } | undefined> {
      const now = clock();
      const emailCanonical = await claimSignIn(db, tokenHashOf(token), now);
      if (emailCanonical === undefined) return undefined;
      const cookie = newSecret();
      const csrfToken = newSecret();
      await insertSession(
        db,
        {
          cookieHash: secretDigest(cookie),
          emailCanonical,
          csrfToken,
          expiresAt: new Date(now.getTime() + holderSessionLifetimeMs),
        },
        now,
      );
      return { cookie, session: { emailCanonical, csrfToken, actor: holderActorOf(emailCanonical) } };
    },

    /** The live session a cookie names (its idle time renewed), or undefined. */
    async session(cookie: string | undefined): Promise<HolderSession | undefined> {
      if (!cookie || cookie.length > 100) return undefined;
      const now = clock();
      const row = await touchSession(db, secretDigest(cookie), now, new Date(now.getTime() - holderSessionIdleMs));
      return (
        row && {
          emailCanonical: row.emailCanonical,
          csrfToken: row.csrfToken,
          actor: holderActorOf(row.emailCanonical),
        }
      );
    },

    signOut(cookie: string): Promise<void> {
      return deleteSession(db, secretDigest(cookie));
    },
  };
}

export type HolderSignIn = ReturnType<typeof holderSignIn>;
