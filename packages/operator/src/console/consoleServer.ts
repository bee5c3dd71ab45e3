import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Database } from '@quotes/database';
import type { Kysely } from 'kysely';
import { type Clock, systemClock } from '@quotes/accounts/rules';
import { defaultSignalThresholds, type SignalThresholds } from '@quotes/accounts/rules';
import type { KeyRequestSettings } from '@quotes/accounts';
import { consoleApp } from './consoleApp.js';
import { consoleContext } from './consoleContext.js';
import { requireConsoleHost } from './consoleSecurity.js';
import { ConsoleSessions } from './consoleSessions.js';

/** The console's address as a browser is given it. */
export function consoleUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export const signInUrl = (url: string, token: string) => `${url}/sign-in?token=${token}`;

export interface RunningConsole {
  /** e.g. `http://127.0.0.1:4100` */
  readonly url: string;
  /** A single-use sign-in link: printed once, never logged. */
  readonly signInUrl: string;
  close(): Promise<void>;
}

/**
 * Serves the operator console on `host:port` (port 0: a free one) over the given database; an
 * address beyond loopback only with `allowRemoteInsecure`.
 */
export async function startConsole(options: {
  database: { db: Kysely<Database> };
  host: string;
  port: number;
  clock?: Clock;
  /** The signs of broken terms' thresholds (the `USAGE_SIGNAL_*` settings, as the CLI reads them). */
  signalThresholds?: SignalThresholds;
  /** Listen on an address beyond loopback, over plain HTTP: warned of at every start (consoleSecurity.ts). */
  allowRemoteInsecure?: boolean;
  /**
   * How approvals and rejections mail the person who asked (the CLI's settings: SMTP_URL,
   * PUBLIC_BASE_URL); without them the console shows requests but decides none.
   */
  keyRequests?: KeyRequestSettings;
  /** Lines about sessions and failures, never a token or a key. */
  log?: (line: string) => void;
}): Promise<RunningConsole> {
  const log = options.log ?? (() => undefined);
  const warning = requireConsoleHost(options.host, options.allowRemoteInsecure === true);
  if (warning) log(warning);
  const clock = options.clock ?? systemClock;
  const sessions = new ConsoleSessions(options.database.db, clock);
  const server = http.createServer();
  server.listen(options.port, options.host);
  await Promise.race([
    once(server, 'listening'),
    once(server, 'error').then(([error]) => {
      throw error;
    }),
  ]);
  const { port } = server.address() as AddressInfo;
  server.on(
    'request',
    consoleApp(
      consoleContext(options.database, clock, options.signalThresholds ?? defaultSignalThresholds, options.keyRequests),
      sessions,
      { host: options.host, port },
      log,
    ),
  );
  const url = consoleUrl(options.host, port);
  return {
    url,
    signInUrl: signInUrl(url, await sessions.newSignInToken()),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
