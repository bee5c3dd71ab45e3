import type { Database } from '@quotes/database';
import type { Kysely } from 'kysely';
import type { Clock } from '@quotes/accounts/rules';
import type { SignalThresholds } from '@quotes/accounts/rules';
import {
  createKeyRequestService,
  createOperatorApi,
  type KeyRequestService,
  type KeyRequestSettings,
  type OperatorApi,
  OperatorError,
} from '@quotes/accounts';
import { silentLogger } from '@quotes/service-base';
import type { ConsoleSession } from './consoleSessions.js';

/** What every console page reads from and acts through. */
export interface ConsoleContext {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly signalThresholds: SignalThresholds;
  /** The operator API as this session: the audit names it `console:LABEL`. */
  operator(session: ConsoleSession, reason?: string | null): OperatorApi;
  /** The key-request service the CLI's `requests` commands use, acting as this session. */
  keyRequests(session: ConsoleSession): KeyRequestService;
  /** The mail settings holders are told through (a plan change); absent when the console has none. */
  readonly mail: Pick<KeyRequestSettings, 'mailer' | 'publicBaseUrl'> | undefined;
  /** Requests to read (the request page), whether or not this console may decide them. */
  keyRequestsView(session: ConsoleSession): Pick<KeyRequestService, 'show'>;
}

const noMail =
  'this console was started without mail settings: decide requests with quotes-admin requests approve|reject';

/** Settings that let the request service read and never mail (a console started without mail settings). */
const readOnly: KeyRequestSettings = {
  mailer: {
    destination: 'nowhere',
    send: () => Promise.reject(new OperatorError(noMail, 'refused')),
    close: () => undefined,
  },
  publicBaseUrl: undefined,
  bounds: {
    perAddressPerHour: 0,
    perNetworkPerHour: 0,
    perEmailPerHour: 0,
    perHour: 0,
    maxOpen: 0,
    unprovenMailsPerHour: 0,
  },
};

export function consoleContext(
  database: { db: Kysely<Database> },
  clock: Clock,
  signalThresholds: SignalThresholds,
  keyRequestSettings?: KeyRequestSettings,
): ConsoleContext {
  const operator = (session: ConsoleSession, reason?: string | null) =>
    createOperatorApi(database, { clock, actor: `console:${session.label}`, reason: reason ?? null });
  return {
    db: database.db,
    clock,
    signalThresholds,
    operator,
    mail: keyRequestSettings,
    keyRequestsView(session) {
      // Reading mails nothing: without the console's mail settings, no address is needed to show a request.
      return createKeyRequestService(database, operator(session), keyRequestSettings ?? readOnly, clock, silentLogger);
    },
    keyRequests(session) {
      if (!keyRequestSettings) throw new OperatorError(noMail, 'refused');
      // Approve and reject log nothing: a failure is thrown, and the console shows it.
      return createKeyRequestService(database, operator(session), keyRequestSettings, clock, silentLogger);
    },
  };
}
