import type { RequestHandler } from 'express';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ContractRouting } from '../http/contractRouting.js';
import type { ServiceRuntime } from '../serviceRuntime.js';
import { callMetrics } from './callMetrics.js';

export interface ServerMetrics {
  readonly registry: Registry;
  /** Express middleware counting and timing every request; installed first. */
  readonly observeCalls: RequestHandler;
}

/** Latency buckets in seconds: a cached answer takes about a millisecond, the database's deadlines 2 s. */
const latencyBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** A counter whose total is kept by the code it describes and read on scrape. */
function countedOnScrape(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

function gaugedOnScrape(registry: Registry, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}

/**
 * The server's Prometheus metrics, one registry per server (tests run several in one process).
 * Only the per-request series are written on the request path; everything else is read from
 * the objects that keep it when Prometheus scrapes.
 */
export function createServerMetrics(runtime: ServiceRuntime, routing: ContractRouting): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const calls = new Counter({
    name: 'quotes_http_requests_total',
    help: 'HTTP requests answered, by operation (operationId, healthz, readyz or other) and status code.',
    labelNames: ['operation', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'quotes_http_request_duration_seconds',
    help: 'Time from the request to the last byte of the answer handed to the socket, by operation.',
    labelNames: ['operation'] as const,
    buckets: latencyBuckets,
    registers: [registry],
  });

  const { counter } = runtime;
  const rounds = counter.roundStats;
  const countingSeries: ReadonlyArray<[name: string, help: string, read: () => number]> = [
    [
      'quotes_count_rounds_total',
      'Counting rounds run: each writes the calls answered since the last and renews, grants or gives back leases.',
      () => rounds.rounds,
    ],
    [
      'quotes_count_round_failures_total',
      'Counting rounds that failed (their calls kept for the next; calls waiting for a lease answered 503).',
      () => rounds.failed,
    ],
    ['quotes_count_round_seconds_total', 'Time spent in counting rounds.', () => rounds.seconds],
    ['quotes_count_flushed_calls_total', 'Counted calls written to the monthly counts.', () => rounds.flushedCalls],
    [
      'quotes_lease_granted_calls_total',
      "Places granted to this server's allowance leases of capped keys.",
      () => rounds.leasedCalls,
    ],
    [
      'quotes_lease_waited_calls_total',
      'Calls of capped keys that found their lease full and waited for a round.',
      () => rounds.waitedCalls,
    ],
  ];
  for (const [name, help, read] of countingSeries) countedOnScrape(registry, name, help, read);
  gaugedOnScrape(
    registry,
    'quotes_count_unflushed_calls',
    'Counted calls answered and not yet written (what a SIGKILL now would lose).',
    () => counter.unflushedCalls,
  );

  const { pool } = runtime.database;
  gaugedOnScrape(
    registry,
    'quotes_db_pool_max_connections',
    'Connections the pool may open.',
    () => pool.options.max ?? 0,
  );
  gaugedOnScrape(registry, 'quotes_db_pool_connections', 'Connections the pool holds open.', () => pool.totalCount);
  gaugedOnScrape(registry, 'quotes_db_pool_idle_connections', 'Open connections not in use.', () => pool.idleCount);
  gaugedOnScrape(
    registry,
    'quotes_db_pool_waiting_clients',
    'Queries waiting for a connection.',
    () => pool.waitingCount,
  );

  const caches = { quote_text: () => runtime.catalog.quoteTextCounts, match_set: () => runtime.catalog.matchSetCounts };
  for (const [kind, help] of [
    ['hits', 'Reads answered from memory'],
    ['misses', 'Reads that went to the database or built a match set'],
  ] as const) {
    new Counter({
      name: `quotes_cache_${kind}_total`,
      help: `${help}, by cache (quote_text: quotes' JSON; match_set: filters' match sets).`,
      labelNames: ['cache'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [cache, counts] of Object.entries(caches)) this.inc({ cache }, counts()[kind]);
      },
    });
  }
  countedOnScrape(
    registry,
    'quotes_cold_work_waits_total',
    'Calls on a filter combination new to this server that waited: for a place (as many such calls ran as it allows at once, COLD_WORK_AT_ONCE; places then go to the keys in turn), or for their pace (their key sent most of them while others were served).',
    () => runtime.coldWork.waited,
  );
  countedOnScrape(
    registry,
    'quotes_cold_work_refusals_total',
    'Such calls answered 429 rate-limited: their turn did not come within 3 s.',
    () => runtime.coldWork.refused,
  );
  gaugedOnScrape(registry, 'quotes_key_cache_entries', 'Keys cached in this process.', () => runtime.keys.size);
  gaugedOnScrape(
    registry,
    'quotes_held_quote_bytes',
    "Bytes of memory every quote's JSON held for random picks takes (only their offsets when held in a file).",
    () => runtime.catalog.heldQuoteBytes,
  );
  gaugedOnScrape(
    registry,
    'quotes_filed_quote_bytes',
    "Bytes of every quote's JSON held in a file for random picks (0: held in memory, or not held).",
    () => runtime.catalog.filedQuoteBytes,
  );
  gaugedOnScrape(
    registry,
    'quotes_live_servers',
    "Servers sharing each key's burst limit, this one included (each enforces its share).",
    () => runtime.presence.servers(),
  );

  const { notifications, outage } = runtime;
  gaugedOnScrape(
    registry,
    'quotes_notification_listener_up',
    '1 while the LISTEN connection is live, else 0 (caches bypassed).',
    () => (notifications.live ? 1 : 0),
  );
  gaugedOnScrape(
    registry,
    'quotes_notification_last_heard_timestamp_seconds',
    'When the LISTEN connection last proved alive (a notification or a heartbeat), Unix time; 0 never.',
    () => notifications.lastHeardAt / 1000,
  );
  gaugedOnScrape(
    registry,
    'quotes_notification_last_received_timestamp_seconds',
    'When the last key or corpus notification arrived, Unix time; 0 never.',
    () => notifications.lastNotificationAt / 1000,
  );
  countedOnScrape(
    registry,
    'quotes_database_outages_total',
    'Database outages begun (calls answered 503 until it answered again).',
    () => outage.started,
  );
  gaugedOnScrape(registry, 'quotes_database_outage', '1 while the database is unavailable, else 0.', () =>
    outage.ongoing ? 1 : 0,
  );

  const { history } = runtime;
  if (history !== undefined) {
    gaugedOnScrape(
      registry,
      'quotes_usage_history_bytes',
      'Estimated bytes the usage history holds not yet taken by a flush (at most USAGE_HISTORY_MAX_MB, plus counts).',
      () => history.heldBytes(),
    );
    countedOnScrape(
      registry,
      'quotes_usage_history_early_flushes_total',
      'Usage history flushes started because USAGE_HISTORY_MAX_MB was reached.',
      () => history.earlyFlushes,
    );
    new Counter({
      name: 'quotes_usage_history_dropped_total',
      help: 'Served quote positions (coverage) and networks, origins or pages (sightings) not recorded: the budget was full while a flush was writing. Calls are never dropped.',
      labelNames: ['kind'] as const,
      registers: [registry],
      collect() {
        this.reset();
        this.inc({ kind: 'coverage' }, history.drops.coverage);
        this.inc({ kind: 'sightings' }, history.drops.sightings);
      },
    });
  }

  return { registry, observeCalls: callMetrics(routing, calls, latency) };
}
