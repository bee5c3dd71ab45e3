import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Config, ConfigError, historyRetentionOf, keyRequestBounds } from '@quotes/service-base';
import type { HistoryRetention } from '@quotes/accounts';
import type { DatabaseHandle } from '@quotes/database';
import { connectBeside, migrateToLatest, publicPageConnections } from '@quotes/database';
import { openServiceDatabase } from './serviceDatabase.js';
import { listen } from './listening.js';
import { type Clock, systemClock } from '@quotes/accounts/rules';
import { createApp } from './http/app.js';
import { warmUpRequestPath } from './http/requestPathWarmUp.js';
import { loadContractRouting } from './http/contractRouting.js';
import { createOperatorApi, type OperatorApi } from '@quotes/accounts';
import { defaultMailFrom, type Logger, silentLogger } from '@quotes/service-base';
import { guardBodyRate, slowClientServerOptions } from './http/slowClients.js';
import { createServerMetrics, type ServerMetrics } from './metrics/serverMetrics.js';
import { type MetricsServer, serveMetrics } from './metrics/metricsServer.js';
import { keyRequestValidator } from '@quotes/key-pages';
import { keyRequestRouter } from '@quotes/key-pages';
import { accountRouter } from '@quotes/account-pages';
import { holderKeys, holderSignIn, proofOfWork } from '@quotes/accounts';
import { Router } from 'express';
import { createKeyRequestService, type KeyRequestSettings } from '@quotes/accounts';
import { createMailer, requirePublicBaseUrl } from '@quotes/accounts';
import { createServiceRuntime } from './serviceRuntime.js';
import { coldWorkAtOnce } from './fairness/coldWork.js';
import { HolderMailSweeper } from './holderMailSweeper.js';
import { publicPagesBulkhead } from './http/publicPagesBulkhead.js';
import type { HolderMailOutcome } from '@quotes/accounts';

export interface StartServerOptions {
  /**
   * The configuration (parseConfig), which every setting below defaults to: given nothing else,
   * the server runs as `npm start` runs it. Without `database`, the database is opened from it
   * (embedded or DATABASE_URL), migrated, and closed by close().
   */
  config: Config;
  /** An open, migrated database instead; the caller keeps ownership and closes it after the server. */
  database?: DatabaseHandle;
  /** Injected time source (tests cross month ends with it). */
  clock?: Clock;
  /** Default config.PORT (0: a free one). */
  port?: number;
  host?: string;
  logger?: Logger;
  /** Memory bound of the cache of combined filter sets (see QUOTE_READS.md); 16 MB by default. */
  matchSetCacheBytes?: number;
  /** Memory bound of the quotes' JSON kept (see quoteTexts.ts); default config.QUOTE_CACHE_MB. */
  quoteTextCacheBytes?: number;
  /** Every quote's JSON is held when it totals at most this (see heldQuotes.ts); default config.QUOTE_HOLD_MB. */
  heldQuoteBytes?: number;
  /** Source of randomness for random quotes (tests may make it deterministic). */
  random?: () => number;
  /** How long close() lets in-flight requests finish before cutting connections; default SHUTDOWN_GRACE_MS less the drain and a second. */
  shutdownGraceMs?: number;
  /** How long close() fails /readyz before it stops accepting (default config.SHUTDOWN_DRAIN_MS). */
  drainMs?: number;
  /** How long a cached key is trusted at most; default config.KEY_CACHE_TTL_MS. */
  keyCacheTtlMs?: number;
  /** How often the notification connection is checked; default config.NOTIFICATION_HEARTBEAT_MS. */
  notificationHeartbeatMs?: number;
  /** How often the counted calls are written and leases renewed; default config.COUNT_FLUSH_MS. */
  countFlushMs?: number;
  /** How often the usage history is written; default config.USAGE_HISTORY_FLUSH_MS. */
  historyFlushMs?: number;
  /** How often the corpus coverage is written; default config.USAGE_COVERAGE_FLUSH_MS. */
  coverageFlushMs?: number;
  /** The bytes the usage history holds between flushes at most; default config.USAGE_HISTORY_MAX_MB. */
  historyMaxBytes?: number;
  /** How long the usage history stays hourly and is kept; default from the config (USAGE_HISTORY_HOURLY_DAYS, USAGE_HISTORY_DAYS). */
  historyRetention?: HistoryRetention;
  /** Port of the Prometheus metrics (0: a free one); default config.METRICS_PORT; unset, no metrics. */
  metricsPort?: number;
  /** Default config.METRICS_HOST. */
  metricsHost?: string;
  /**
   * Asking for a key: each setting defaults to the config's (SMTP_URL or DATA_DIR/outbox,
   * PUBLIC_BASE_URL, else the listening address, TRUST_PROXY, OPERATOR_EMAIL, KEY_REQUESTS_*).
   */
  keyRequests?: Partial<KeyRequestSettings>;
  /** How often this server tells the others it is live (default 2 s; see ServerPresence). */
  presenceIntervalMs?: number;
  /** How often the holders' mails are swept (through the key requests' mailer); default config.HOLDER_MAIL_SWEEP_MS (0: only sweepHolderMail() sends). */
  holderMailSweepMs?: number;
  /** The sign-in links' timer: each link is mailed one to two of these after it was asked for (default 1 s, holderSignIn.ts). */
  signInMailDelayMs?: number;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly database: DatabaseHandle;
  /** Where the Prometheus metrics are served, when they are. */
  readonly metricsUrl: string | undefined;
  /** The operator's key and usage operations on this server's database and clock. */
  readonly operator: OperatorApi;
  /** Writes the usage history counted so far now rather than at the next interval. */
  flushUsageHistory(): Promise<void>;
  /** Writes the counted calls now rather than at the next interval. */
  flushCounts(): Promise<void>;
  /** Servers sharing the per-key burst limits now, this one included. */
  liveServers(): number;
  /** Mails what is due to key holders now rather than at the next sweep. */
  sweepHolderMail(): Promise<HolderMailOutcome>;
  /** Stops accepting, lets in-flight requests finish, stops listening for notifications; closes the database only if it opened it. */
  close(): Promise<void>;
}

/**
 * Stops accepting connections (every answer still to be written carries `Connection: close`
 * already: drainAwareResponses), closes idle kept-alive connections now, and cuts whatever is
 * left after the grace period.
 */
function stopAccepting(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}

function urlOf(address: AddressInfo): string {
  return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
}

/** The key-request settings: the options', else the config's (see StartServerOptions). */
function keyRequestSettings(
  options: StartServerOptions,
  listeningUrl: () => string,
  onWaiting: () => void,
): KeyRequestSettings {
  const { config } = options;
  const given = options.keyRequests ?? {};
  const mailer =
    given.mailer ??
    createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, outboxDir: join(config.DATA_DIR, 'outbox') });
  const base = given.publicBaseUrl ?? config.PUBLIC_BASE_URL?.replace(/\/+$/, '');
  return {
    mailer,
    get publicBaseUrl() {
      return base ?? listeningUrl();
    },
    bounds: given.bounds ?? keyRequestBounds(config),
    trustProxy: given.trustProxy ?? config.TRUST_PROXY,
    operatorEmail: given.operatorEmail ?? config.OPERATOR_EMAIL,
    onWaiting: () => {
      given.onWaiting?.();
      onWaiting();
    },
  };
}

/**
 * A server listening on every address (HOST=0.0.0.0 or ::) cannot tell from its address where
 * people reach it, so its mailed links need PUBLIC_BASE_URL.
 */
function requireReachableBase(options: StartServerOptions, host: string): void {
  if (options.keyRequests?.publicBaseUrl ?? options.config.PUBLIC_BASE_URL) return;
  if (host === '0.0.0.0' || host === '::' || host === '[::]')
    throw new ConfigError(
      `PUBLIC_BASE_URL: HOST=${host} listens on every address, so the links the service mails need PUBLIC_BASE_URL (the address people reach it at, e.g. https://quotes.example.com)`,
    );
}

/**
 * How long close() lets in-flight requests finish once draining ends: the shutdown grace less the
 * drain and a second to close the rest, so connections are cut before the exit timer fires.
 */
function graceAfterDrain(config: Config): number {
  const left = config.SHUTDOWN_GRACE_MS - config.SHUTDOWN_DRAIN_MS;
  return Math.max(left - 1000, left / 2);
}

/** Starts the Quote Retrieval Service; used by `npm start` (main.ts), the tests and the conformance suite. */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const log = options.logger ?? silentLogger;
  const clock = options.clock ?? systemClock;
  const { config } = options;
  const host = options.host ?? config.HOST;
  requireReachableBase(options, host);
  if (config.MAIL_FROM === defaultMailFrom && !options.keyRequests?.mailer)
    log.warn(
      { MAIL_FROM: config.MAIL_FROM },
      'MAIL_FROM is the default, an address no mail server sends for: set MAIL_FROM to your own sender (e.g. MAIL_FROM="Quotes <keys@quotes.example.com>")',
    );
  let ownedDatabase: DatabaseHandle | undefined;
  let database = options.database;
  if (!database) {
    ownedDatabase = await openServiceDatabase(config, log);
    database = ownedDatabase;
    await migrateToLatest(database.db);
  }
  try {
    const runtime = await createServiceRuntime(database, {
      clock,
      log,
      matchSetCacheBytes: options.matchSetCacheBytes ?? 16 * 1024 * 1024,
      quoteTextCacheBytes: options.quoteTextCacheBytes ?? config.QUOTE_CACHE_MB * 1024 * 1024,
      heldQuoteBytes: options.heldQuoteBytes ?? config.QUOTE_HOLD_MB * 1024 * 1024,
      quoteFileBytes: config.QUOTE_FILE_MB * 1024 * 1024,
      fairness: {
        maxInFlight: config.KEY_CALLS_AT_ONCE,
        maxQueued: config.KEY_CALLS_QUEUED,
        maxWaitMs: config.KEY_QUEUE_WAIT_MS,
      },
      coldWork: { atOnce: config.COLD_WORK_AT_ONCE ?? coldWorkAtOnce(config.DATABASE_POOL_SIZE) },
      random: options.random,
      keyCacheTtlMs: options.keyCacheTtlMs ?? config.KEY_CACHE_TTL_MS,
      notificationHeartbeatMs: options.notificationHeartbeatMs ?? config.NOTIFICATION_HEARTBEAT_MS,
      trustProxy: options.keyRequests?.trustProxy ?? config.TRUST_PROXY,
      recordHistory: config.USAGE_HISTORY !== 'off',
      countFlushMs: options.countFlushMs ?? config.COUNT_FLUSH_MS,
      countJournalRoot: join(config.DATA_DIR, 'count-journal'),
      historyFlushMs: options.historyFlushMs ?? config.USAGE_HISTORY_FLUSH_MS,
      coverageFlushMs: options.coverageFlushMs ?? config.USAGE_COVERAGE_FLUSH_MS,
      historyMaxBytes: options.historyMaxBytes ?? config.USAGE_HISTORY_MAX_MB * 1024 * 1024,
      historyRetention: options.historyRetention ?? historyRetentionOf(config),
      presenceIntervalMs: options.presenceIntervalMs,
    });
    // Slow clients (headers or a body trickled in) are cut within stated bounds: slowClients.ts.
    const server = createServer(slowClientServerOptions);
    server.on('request', guardBodyRate);
    let address: AddressInfo | undefined;
    let metricsServer: MetricsServer | undefined;
    // Made once listening; a request waiting before then is noticed at the first sweep.
    let holderMail: HolderMailSweeper | undefined;
    const keyRequests = keyRequestSettings(
      options,
      () => {
        if (!address) throw new Error('the server is not listening yet');
        return urlOf(address);
      },
      () => holderMail?.soon(),
    );
    // The public pages' bulkhead: a pool of their own beside the API's (see publicPagesBulkhead.ts).
    const publicDatabase = connectBeside(database, {
      ...publicPageConnections(config),
      onPoolError: (error) => log.debug({ err: error }, 'idle database connection of the public pages closed'),
    });
    const keyRequestService = createKeyRequestService(
      publicDatabase,
      // Requests the service grants by itself (self-service plans) are its actions in the audit.
      createOperatorApi(publicDatabase, {
        clock,
        onKeyChanged: (keyId) => runtime.keys.invalidate(keyId),
        actor: 'service:key-requests',
      }),
      keyRequests,
      clock,
      log,
    );
    // The server always knows where it is served from: PUBLIC_BASE_URL, else its listening address.
    const servedFrom = (): string => requirePublicBaseUrl(keyRequests.publicBaseUrl);
    // The holders' page: the key requests' mailer, address and bounds; its changes reach this server at once.
    const holderSettings = {
      mailer: keyRequests.mailer,
      get publicBaseUrl() {
        return servedFrom();
      },
      bounds: keyRequests.bounds,
      trustProxy: keyRequests.trustProxy,
      onKeyChanged: (keyId: string) => runtime.keys.invalidate(keyId),
      onRequestWaiting: keyRequests.onWaiting,
      signInMailDelayMs: options.signInMailDelayMs,
    };
    const holderSignIns = holderSignIn(publicDatabase, holderSettings, clock, log);
    // Both forms that mail strangers ask for a proof of work while the service is busy: one rule (proofOfWork.ts).
    const proof = proofOfWork(
      publicDatabase.db,
      {
        fromPercent: config.PROOF_OF_WORK_FROM_PERCENT,
        unprovenMailsPerHour: keyRequests.bounds.unprovenMailsPerHour,
      },
      clock,
    );
    const pagesBulkhead = publicPagesBulkhead({
      atOnce: config.PUBLIC_PAGES_AT_ONCE,
      queued: config.PUBLIC_PAGES_QUEUED,
      perSecond: config.PUBLIC_PAGES_PER_SECOND,
    });
    try {
      const routing = await loadContractRouting();
      const metricsPort = options.metricsPort ?? config.METRICS_PORT;
      let metrics: ServerMetrics | undefined;
      if (metricsPort !== undefined) {
        metrics = createServerMetrics(runtime, routing);
        metricsServer = await serveMetrics(metrics.registry, metricsPort, options.metricsHost ?? config.METRICS_HOST);
      }
      const pages = Router();
      pages.use(pagesBulkhead.inTurn);
      pages.use(keyRequestRouter(keyRequestService, await keyRequestValidator(), proof));
      pages.use(
        '/account',
        accountRouter({
          signIn: holderSignIns,
          keys: holderKeys(publicDatabase, holderSettings, clock),
          proof,
          publicBaseUrl: servedFrom,
          trustProxy: keyRequests.trustProxy,
          clock,
        }),
      );
      const app = createApp(runtime, routing, metrics?.observeCalls, pages);
      // The first calls after a start then cost what later ones do (QUOTE_READS.md).
      if (config.WARM_UP_MS > 0) {
        const started = performance.now();
        const warmed = await warmUpRequestPath(routing, runtime, {
          calls: config.WARM_UP_CALLS,
          deadlineMs: config.WARM_UP_MS,
        });
        log.info({ ...warmed, ms: Math.round(performance.now() - started) }, 'request path warmed up');
      }
      server.on('request', (request, response) => {
        if (!pagesBulkhead.refused(request, response)) app(request, response);
      });
      address = await listen(server, options.port ?? config.PORT, host);
    } catch (error) {
      // The runtime holds the notification connection open: left running, the process would
      // never exit after reporting, say, a port already in use.
      await metricsServer?.close();
      keyRequests.mailer.close();
      await holderSignIns.close();
      await publicDatabase.close();
      await runtime.close().catch(() => undefined);
      throw error;
    }
    holderMail = new HolderMailSweeper(
      database.db,
      {
        mailer: keyRequests.mailer,
        get publicBaseUrl() {
          return servedFrom();
        },
        operatorEmail: keyRequests.operatorEmail,
        clock,
      },
      options.holderMailSweepMs ?? config.HOLDER_MAIL_SWEEP_MS,
      log,
    );
    holderMail.start();
    runtime.crossings.listen(() => holderMail.soon());
    let closing: Promise<void> | undefined;
    return {
      url: urlOf(address),
      port: address.port,
      database,
      metricsUrl: metricsServer?.url,
      operator: createOperatorApi(database, { clock, onKeyChanged: (keyId) => runtime.keys.invalidate(keyId) }),
      flushUsageHistory: async () => runtime.history?.flush(),
      flushCounts: () => runtime.counter.flush(),
      liveServers: () => runtime.presence.servers(),
      sweepHolderMail: () => holderMail.sweep(),
      close() {
        closing ??= (async () => {
          runtime.lifecycle.draining = true;
          const drainMs = options.drainMs ?? config.SHUTDOWN_DRAIN_MS;
          if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
          await stopAccepting(server, options.shutdownGraceMs ?? graceAfterDrain(config));
          await runtime.close();
          await metricsServer?.close();
          // A public request worked on when connections were cut still records and mails: it ends first.
          await pagesBulkhead.queue.onIdle();
          await keyRequestService.idle();
          await holderMail.close();
          await holderSignIns.close();
          keyRequests.mailer.close();
          await publicDatabase.close();
          await ownedDatabase?.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await ownedDatabase?.close();
    throw error;
  }
}
