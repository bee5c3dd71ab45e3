import { randomBytes } from 'node:crypto';
import type { Clock } from '@quotes/accounts/rules';
import type { Database } from '@quotes/database';
import type { Kysely } from 'kysely';
import { createSignInLink, takeSignInLink } from '../data/consoleSignInLinks.js';
import { newSecret, sameSecret, secretDigest } from '@quotes/service-base';

/** How long a signed-in session lasts, whatever it does (the cookie's Max-Age). */
export const sessionLifetimeMs = 8 * 3_600_000;
/** A session unused this long is signed out. */
export const sessionIdleMs = 3_600_000;

export interface ConsoleSession {
  /** Short and not secret: the audit's `console:LABEL`. */
  readonly label: string;
  /** Sent with every form; compared in constant time. */
  readonly csrfToken: string;
  readonly expiresAt: number;
  lastSeen: number;
}

const secret = newSecret;
/** Sessions are found by a hash of the cookie, so the table holds no usable cookie. */
const digest = (text: string) => secretDigest(text).toString('base64url');
const sameText = sameSecret;

/**
 * The console's sessions, in memory (a restart signs everyone out), and the single-use sign-in
 * links they start from, in the database by hash: a link made later by another process
 * (`quotes-admin console link`) signs a second browser or operator into the running console.
 */
export class ConsoleSessions {
  private readonly sessions = new Map<string, ConsoleSession>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** A new single-use sign-in token (signInLinkLifetimeMs to use it). */
  newSignInToken(): Promise<string> {
    return createSignInLink(this.db, this.clock());
  }

  /** Exchanges a sign-in token for a session cookie value, once; undefined for a used, expired or unknown one. */
  async signIn(token: string): Promise<{ cookie: string; session: ConsoleSession } | undefined> {
    if (!(await takeSignInLink(this.db, token, this.clock()))) return undefined;
    const now = this.clock().getTime();
    const cookie = secret();
    const session: ConsoleSession = {
      label: randomBytes(4).toString('hex'),
      csrfToken: secret(),
      expiresAt: now + sessionLifetimeMs,
      lastSeen: now,
    };
    this.prune(now);
    this.sessions.set(digest(cookie), session);
    return { cookie, session };
  }

  /** The live session a cookie names (its idle time renewed), or undefined. */
  find(cookie: string | undefined): ConsoleSession | undefined {
    if (!cookie) return undefined;
    const now = this.clock().getTime();
    const key = digest(cookie);
    const session = this.sessions.get(key);
    if (!session) return undefined;
    if (now >= session.expiresAt || now - session.lastSeen >= sessionIdleMs) {
      this.sessions.delete(key);
      return undefined;
    }
    session.lastSeen = now;
    return session;
  }

  signOut(cookie: string): void {
    this.sessions.delete(digest(cookie));
  }

  /** Whether a form's token is this session's, in constant time. */
  static csrfMatches(session: ConsoleSession, given: unknown): boolean {
    return typeof given === 'string' && sameText(given, session.csrfToken);
  }

  private prune(now: number): void {
    for (const [key, session] of this.sessions)
      if (now >= session.expiresAt || now - session.lastSeen >= sessionIdleMs) this.sessions.delete(key);
  }
}
