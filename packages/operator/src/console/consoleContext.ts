import type { Database } from '@quotes/database';
import type { Kysely } from 'kysely';
import type { Clock } from '@quotes/accounts/rules';
import type { SignalThresholds } from '@quotes/accounts/rules';
import { createOperatorApi, type OperatorApi } from '@quotes/accounts';
import type { ConsoleSession } from './consoleSessions.js';

/** What every console page reads from and acts through. */
export interface ConsoleContext {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly signalThresholds: SignalThresholds;
  /** The operator API as this session: the audit names it `console:LABEL`. */
  operator(session: ConsoleSession, reason?: string | null): OperatorApi;
}

export function consoleContext(
  database: { db: Kysely<Database> },
  clock: Clock,
  signalThresholds: SignalThresholds,
): ConsoleContext {
  return {
    db: database.db,
    clock,
    signalThresholds,
    operator: (session, reason) =>
      createOperatorApi(database, { clock, actor: `console:${session.label}`, reason: reason ?? null }),
  };
}
