import { MonthlyCounter } from './data/monthlyCounter.js';
import { DatabaseNotifications } from './data/databaseNotifications.js';
import { QuoteCatalog } from './data/quoteCatalog.js';
import type { DatabaseHandle } from '@quotes/database';
import type { Clock } from './domain/clock.js';
import { KeyCache } from './keys/keyCache.js';
import type { Logger } from './log.js';

/** What every request handler works with; created once per server. */
export interface ServiceRuntime {
  readonly database: DatabaseHandle;
  readonly clock: Clock;
  readonly log: Logger;
  readonly keys: KeyCache;
  readonly counter: MonthlyCounter;
  readonly catalog: QuoteCatalog;
  readonly notifications: DatabaseNotifications;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  clock: Clock;
  log: Logger;
  matchSetCacheBytes: number;
  random?: () => number;
}

export async function createServiceRuntime(database: DatabaseHandle, options: RuntimeOptions): Promise<ServiceRuntime> {
  const { log } = options;
  let notifications: DatabaseNotifications | undefined;
  const live = () => notifications?.live ?? false;
  const keys = new KeyCache(database.db, live);
  const catalog = new QuoteCatalog(database.pool, {
    cacheBytes: options.matchSetCacheBytes,
    notificationsLive: live,
    random: options.random,
  });
  const counter = new MonthlyCounter(database.pool, (error) =>
    log.warn({ err: error }, 'give-back of a counted call postponed'),
  );
  notifications = new DatabaseNotifications(database.url, {
    onKeyChanged: (keyId) => keys.invalidate(keyId),
    onCorpusChanged: () => catalog.invalidate(),
    onListening: () => {
      keys.clear();
      catalog.invalidate();
      log.debug('listening for key and corpus changes');
    },
    onLost: (error) => log.warn({ err: error }, 'lost the notification connection; caches bypassed until it is back'),
  });
  await notifications.start();
  // The first filtered call after start then finds the taxonomy index built.
  await catalog.whenPrepared();
  return {
    database,
    clock: options.clock,
    log,
    keys,
    counter,
    catalog,
    notifications,
    async close() {
      await notifications.close();
      await counter.settleDebts().catch(() => undefined);
      counter.close();
    },
  };
}
