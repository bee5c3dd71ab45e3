import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { createOperatorApi } from '@quotes/accounts';
import { type RunningServer, startServer } from '../../src/startServer.js';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { callServer } from '../../testing/testServer.js';
import { scrape } from '../support/metricsScrape.js';
import { testConfig } from '../../testing/testConfig.js';

let database: TestDatabase;
let server: RunningServer;

beforeAll(async () => {
  database = await createTestDatabase();
  await loadFixtureCorpus(database);
  server = await startServer({
    config: testConfig(),
    database,
    metricsPort: 0,
    shutdownGraceMs: 2000,
  });
});
afterAll(async () => {
  await server?.close();
  await database?.drop();
});

describe('the metrics port', () => {
  it('is a port of its own, on loopback, and answers only GET /metrics', async () => {
    const metricsUrl = new URL(server.metricsUrl ?? '');
    expect(metricsUrl.hostname).toBe('127.0.0.1');
    expect(metricsUrl.port).not.toBe(new URL(server.url).port);
    expect((await fetch(new URL('/', metricsUrl))).status).toBe(404);
    // Not reachable through the API's listener either.
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  });

  it('counts real calls by operation and status, with latencies, counting rounds and leases, pool, caches and notifications', async () => {
    const operator = createOperatorApi(database);
    const issued = await operator.createKey({ client: 'Metrics', plan: 'professional' });
    for (let i = 0; i < 3; i++) await callServer(server.url, '/v1/quotes-random', { key: issued.key });
    for (let i = 0; i < 2; i++)
      await callServer(server.url, '/v1/quotes-filter?category=a&limit=2', { key: issued.key });
    await callServer(server.url, '/v1/quotes-random', { key: 'qk_000000000000000000000000' });
    await callServer(server.url, '/v1/no-such-thing', { unchecked: true });
    await callServer(server.url, '/readyz', { unchecked: true });
    // A revocation from another process arrives as a notification.
    const revoked = await operator.createKey({ client: 'Metrics', plan: 'starter' });
    await operator.revokeKey(revoked.id, 'test');

    await server.flushCounts();
    const before = Date.now() / 1000;
    let scraped = await scrape(server.metricsUrl ?? '');
    for (
      let tries = 0;
      (scraped.samples.get('quotes_notification_last_received_timestamp_seconds') ?? 0) === 0;
      tries++
    ) {
      expect(tries).toBeLessThan(50);
      await new Promise((resolve) => setTimeout(resolve, 20));
      scraped = await scrape(server.metricsUrl ?? '');
    }
    const { contentType, samples } = scraped;
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    const value = (series: string) => samples.get(series);

    expect(value('quotes_http_requests_total{operation="getRandomQuote",status="200"}')).toBe(3);
    expect(value('quotes_http_requests_total{operation="listQuotes",status="200"}')).toBe(2);
    expect(value('quotes_http_requests_total{operation="getRandomQuote",status="401"}')).toBe(1);
    // This one and the first test's /metrics on the API port.
    expect(value('quotes_http_requests_total{operation="other",status="404"}')).toBe(2);
    expect(value('quotes_http_requests_total{operation="readyz",status="200"}')).toBe(1);
    expect(value('quotes_http_request_duration_seconds_count{operation="getRandomQuote"}')).toBe(4);
    expect(value('quotes_http_request_duration_seconds_bucket{le="+Inf",operation="listQuotes"}')).toBe(2);
    expect(value('quotes_http_request_duration_seconds_sum{operation="listQuotes"}')).toBeGreaterThan(0);

    // Five counted calls of a capped key: each admitted within a lease (a call that found it full
    // waited for a round, which granted it a place at least), all written by the flush asked for.
    expect(value('quotes_count_flushed_calls_total')).toBe(5);
    expect(value('quotes_count_unflushed_calls')).toBe(0);
    expect(value('quotes_lease_waited_calls_total')).toBeGreaterThanOrEqual(1);
    expect(value('quotes_lease_waited_calls_total')).toBeLessThanOrEqual(5);
    expect(value('quotes_lease_granted_calls_total')).toBeGreaterThanOrEqual(
      value('quotes_lease_waited_calls_total') ?? 1,
    );
    expect(value('quotes_count_rounds_total')).toBeGreaterThanOrEqual(2);
    expect(value('quotes_count_round_failures_total')).toBe(0);
    expect(value('quotes_count_round_seconds_total')).toBeGreaterThan(0);

    expect(value('quotes_db_pool_max_connections')).toBe(10);
    expect(value('quotes_db_pool_connections')).toBeGreaterThan(0);
    expect(value('quotes_db_pool_idle_connections')).toBeLessThanOrEqual(value('quotes_db_pool_connections') ?? 0);
    expect(value('quotes_db_pool_waiting_clients')).toBe(0);

    // The small corpus's JSON is held in memory, so neither the random picks nor the pages (cut
    // from the held quotes) read a quote's text; the same filter twice: one build, one hit at most.
    expect(value('quotes_held_quote_bytes')).toBeGreaterThan(0);
    expect(value('quotes_filed_quote_bytes')).toBe(0);
    const quoteReads =
      (value('quotes_cache_hits_total{cache="quote_text"}') ?? 0) +
      (value('quotes_cache_misses_total{cache="quote_text"}') ?? 0);
    expect(quoteReads).toBe(0);
    expect(value('quotes_cache_misses_total{cache="match_set"}')).toBeGreaterThanOrEqual(1);
    expect(value('quotes_key_cache_entries')).toBeGreaterThanOrEqual(1);

    expect(value('quotes_notification_listener_up')).toBe(1);
    expect(value('quotes_notification_last_received_timestamp_seconds')).toBeGreaterThan(before - 5);
    expect(value('quotes_notification_last_heard_timestamp_seconds')).toBeGreaterThan(before - 5);
    expect(value('quotes_database_outage')).toBe(0);
    expect(value('quotes_database_outages_total')).toBe(0);
    // The process's own, from prom-client's defaults.
    expect(value('process_cpu_seconds_total')).toBeGreaterThan(0);

    // Every series the Grafana dashboard queries is one the server serves.
    const dashboard = await readFile(
      new URL('../../../../deploy/grafana/quotes-dashboard.json', import.meta.url),
      'utf8',
    );
    const queried = new Set(dashboard.match(/\b(quotes|process|nodejs)_[a-z0-9_]+/g));
    const served = new Set([...samples.keys()].map((series) => series.replace(/\{.*$/, '')));
    expect([...queried].filter((name) => !served.has(name))).toEqual([]);
    expect(queried.size).toBeGreaterThan(15);
  });
});
