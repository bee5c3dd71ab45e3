import { AllowanceCrossings } from './domain/allowanceCrossings.js';
import { MonthlyCounter } from './data/counting/monthlyCounter.js';
import { EarlierPeriodCalls } from './data/counting/earlierPeriodCalls.js';
import { CountJournal, databaseScope, deadJournals, journalDir } from './data/counting/countJournal.js';
import { DatabaseNotifications } from './data/databaseNotifications.js';
import { QuoteCatalog } from './data/catalog/quoteCatalog.js';
import { type DatabaseHandle, openConnections } from '@quotes/database';
import { DatabaseOutage, outageCause } from './databaseOutage.js';
import type { Clock } from '@quotes/accounts/rules';
import { type FairnessOptions, KeyFairness } from './fairness/keyFairness.js';
import { KeyDemand } from './fairness/keyDemand.js';
import { ColdWork, type ColdWorkOptions } from './fairness/coldWork.js';
import { ServerPresence } from './fairness/serverPresence.js';
import { KeyCache } from './keys/keyCache.js';
import { clientAddressReader } from '@quotes/service-base';
import type { IncomingMessage } from 'node:http';
import { UsageHistory } from './data/history/usageHistory.js';
import { foldAndPruneHistory, type HistoryRetention } from '@quotes/accounts';
import type { Logger } from '@quotes/service-base';

/** What every request handler works with; created once per server. */
export interface ServiceRuntime {
  readonly database: DatabaseHandle;
  readonly clock: Clock;
  readonly log: Logger;
  readonly keys: KeyCache;
  readonly counter: MonthlyCounter;
  /** A key's calls in its allowance period's earlier months (a trial across the 1st). */
  readonly earlierCalls: EarlierPeriodCalls;
  /** Calls that take a key's allowance to 80% or 100%: the holder mail is swept soon after. */
  readonly crossings: AllowanceCrossings;
  readonly catalog: QuoteCatalog;
  readonly notifications: DatabaseNotifications;
  readonly outage: DatabaseOutage;
  /** Each key's burst limit (shared by the live servers) and calls at once, in this process. */
  readonly fairness: KeyFairness;
  /** Each key's calls on filter combinations new to this server: their share of it while others are served. */
  readonly coldWork: ColdWork;
  /** Each key's calls per hour and outcome, counted in memory and flushed periodically; none with USAGE_HISTORY=off. */
  readonly history: UsageHistory | undefined;
  /** The client's address: the socket's, or X-Forwarded-For's behind a proxy TRUST_PROXY names. */
  readonly clientAddress: (request: IncomingMessage) => string;
  /** The servers live on this database, this one included. */
  readonly presence: ServerPresence;
  /** Set when shutdown begins: /readyz fails from then on. */
  readonly lifecycle: { draining: boolean };
  close(): Promise<void>;
}

export interface RuntimeOptions {
  clock: Clock;
  log: Logger;
  matchSetCacheBytes: number;
  quoteTextCacheBytes: number;
  /** Every quote's JSON is held when it totals at most this (see heldQuotes.ts); none when unset. */
  heldQuoteBytes?: number;
  /** When they do not, in a file when they total at most this (see filedQuotes.ts). */
  quoteFileBytes?: number;
  /** One key's calls at once per process (see KeyFairness); its defaults when unset. */
  fairness?: FairnessOptions;
  /** One key's cold calls' share of the server (see ColdWork); its defaults when unset. */
  coldWork?: ColdWorkOptions;
  random?: () => number;
  /** How long a cached key is trusted at most (default 15 s). */
  keyCacheTtlMs?: number;
  /** How often the notification connection is checked (default 5 s). */
  notificationHeartbeatMs?: number;
  /** Proxies whose X-Forwarded-For is believed (TRUST_PROXY); none by default. */
  trustProxy?: readonly string[];
  /** Whether calls are recorded in the usage history (default true; USAGE_HISTORY). */
  recordHistory?: boolean;
  /** How often the counted calls are written and leases renewed (default 200 ms). */
  countFlushMs?: number;
  /** Where each answered call is journaled for recovery after a SIGKILL (DATA_DIR/count-journal); none when unset. */
  countJournalRoot?: string;
  /** How often the usage history is written (default 10 s). */
  historyFlushMs?: number;
  /** How often the corpus coverage is written (default: with every history flush; USAGE_COVERAGE_FLUSH_MS). */
  coverageFlushMs?: number;
  /** The bytes the usage history holds between flushes at most (default 16 MB; USAGE_HISTORY_MAX_MB). */
  historyMaxBytes?: number;
  /** How long the usage history stays hourly and is kept (default 31 and 400 days). */
  historyRetention?: HistoryRetention;
  /** How often this server tells the others it is live (default 2 s; see ServerPresence). */
  presenceIntervalMs?: number;
}

/** How often each server looks for the journals of killed servers on its host. */
const journalSweepMs = 10_000;
/** How often each server folds old hourly history into days and drops what is past retention. */
const historyUpkeepMs = 3_600_000;

export async function createServiceRuntime(database: DatabaseHandle, options: RuntimeOptions): Promise<ServiceRuntime> {
  const { log } = options;
  let notifications: DatabaseNotifications | undefined;
  const live = () => notifications?.live ?? false;
  const outage = new DatabaseOutage(log);
  const keys = new KeyCache(database.db, live, options.keyCacheTtlMs);
  const catalog = new QuoteCatalog(database.pool, {
    cacheBytes: options.matchSetCacheBytes,
    quoteTextBytes: options.quoteTextCacheBytes,
    heldQuoteBytes: options.heldQuoteBytes,
    quoteFileBytes: options.quoteFileBytes,
    notificationsLive: live,
    random: options.random,
  });
  // Peers time out on what this server heard, so a stalled event loop does not count them out.
  const heardAt = () => notifications?.lastHeardAt ?? 0;
  const presence = new ServerPresence((payload) => notifications?.announce(payload) ?? Promise.resolve(), live, {
    intervalMs: options.presenceIntervalMs,
    heardAt,
  });
  const demand = new KeyDemand(
    presence.id,
    (payload) => notifications?.announce(payload) ?? Promise.resolve(),
    live,
    () => presence.servers(),
    { intervalMs: options.presenceIntervalMs, heardAt },
  );
  const journalRoot = options.countJournalRoot;
  const scope = journalRoot === undefined ? undefined : await databaseScope(database.pool);
  let journal: CountJournal | undefined;
  if (journalRoot !== undefined && scope !== undefined) {
    try {
      journal = new CountJournal(journalDir(journalRoot, scope, presence.id), (error) =>
        log.warn(
          { cause: outageCause(error) },
          'journal of counted calls stopped: a SIGKILL from now on loses the calls since the last flush',
        ),
      );
    } catch (error) {
      log.warn(
        { cause: outageCause(error) },
        'no journal of counted calls (DATA_DIR/count-journal not writable): a SIGKILL loses the calls since the last flush',
      );
    }
  }
  const counter = new MonthlyCounter(database.pool, {
    journal,
    flushMs: options.countFlushMs,
    servers: () => presence.servers(),
    serverId: presence.id,
    onFailure: (error) => outage.failed(error),
    onSuccess: () => outage.succeeded(),
  });
  let wasListening = false;
  notifications = new DatabaseNotifications(
    database.directUrl,
    {
      onKeyChanged: (keyId) => keys.invalidate(keyId),
      onCorpusChanged: (change) => catalog.invalidate(change),
      onCorpusNext: (next) => {
        void catalog.prepareNext(next).then(() => notifications?.prepared(next.version));
      },
      onPresence: (payload) => {
        presence.receive(payload);
        demand.receive(payload);
      },
      onListening: () => {
        presence.listening();
        keys.clear();
        catalog.invalidate();
        if (wasListening) log.info('listening for key and corpus changes again; caches dropped');
        wasListening = true;
      },
      onLost: (error) => {
        // One warning per loss; the reconnection attempts that follow are not news.
        if (!wasListening) return;
        wasListening = false;
        log.warn({ cause: outageCause(error) }, 'lost the notification connection; caches bypassed until it is back');
      },
    },
    { heartbeatMs: options.notificationHeartbeatMs },
  );
  await notifications.start();
  presence.start();
  demand.start();
  // The first filtered call after start then finds the taxonomy index built, and the
  // connections the pool keeps open already open.
  const preparing = performance.now();
  await Promise.all([
    catalog.whenPrepared(),
    // Best effort: a call opens what it needs anyway.
    openConnections(database.pool, database.pool.options.min ?? 0).catch(() => undefined),
  ]);
  log.info(
    {
      ms: Math.round(performance.now() - preparing),
      heldQuoteBytes: catalog.heldQuoteBytes,
      filedQuoteBytes: catalog.filedQuoteBytes,
    },
    'quotes held at start',
  );
  const history =
    options.recordHistory === false
      ? undefined
      : new UsageHistory(database.pool, options.historyFlushMs ?? 10_000, {
          maxBytes: options.historyMaxBytes,
          coverageFlushMs: options.coverageFlushMs,
          onError: (error) =>
            log.warn({ cause: outageCause(error) }, 'usage history not written; kept for the next flush'),
        });
  const retention = options.historyRetention ?? { keepDays: 400, hourlyDays: 31 };
  const upkeep = () =>
    void foldAndPruneHistory(database.db, options.clock(), retention).catch((error: unknown) =>
      log.warn({ cause: outageCause(error) }, 'usage history not folded; tried again within the hour'),
    );
  upkeep();
  const upkeepTimer = setInterval(upkeep, historyUpkeepMs);
  upkeepTimer.unref();
  // The journals of servers on this host that were killed: added at start and every sweep.
  const sweep = () => {
    if (journalRoot === undefined || scope === undefined || journal === undefined) return;
    void counter
      .recoverJournals(deadJournals(journalRoot, scope, journal.dir))
      .then((calls) => {
        if (calls > 0) log.info({ calls }, 'counted the calls a stopped server had journaled and not written');
      })
      .catch(() => undefined);
  };
  sweep();
  const sweepTimer = setInterval(sweep, journalSweepMs);
  sweepTimer.unref();
  return {
    database,
    clock: options.clock,
    log,
    keys,
    counter,
    earlierCalls: new EarlierPeriodCalls(counter),
    crossings: new AllowanceCrossings(),
    catalog,
    notifications,
    outage,
    fairness: new KeyFairness({ ...options.fairness, share: (keyId, rate) => demand.offer(keyId, rate) }),
    coldWork: new ColdWork(options.coldWork),
    presence,
    history,
    clientAddress: clientAddressReader(options.trustProxy),
    lifecycle: { draining: false },
    async close() {
      demand.stop();
      await presence.close();
      clearInterval(upkeepTimer);
      clearInterval(sweepTimer);
      await history?.close();
      await notifications.close();
      await counter.close();
      catalog.close();
    },
  };
}
