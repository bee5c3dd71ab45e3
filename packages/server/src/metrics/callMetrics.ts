import type { RequestHandler } from 'express';
import type { Counter, Histogram } from 'prom-client';
import type { ContractRouting } from '../http/contractRouting.js';

/** The paths outside the contract that are worth a label of their own; everything else is `other`. */
const probes = new Map([
  ['/healthz', 'healthz'],
  ['/readyz', 'readyz'],
]);

/**
 * The operation a request is labelled with: its operationId on a contract path (whatever the
 * method, so refusals count under the operation asked for), a probe's name, else `other`. A
 * small fixed set, so the series cannot grow with what clients send.
 */
export function operationLabel(url: string, routing: ContractRouting): string {
  const queryStart = url.indexOf('?');
  const path = queryStart >= 0 ? url.slice(0, queryStart) : url;
  const match = routing.match('GET', path);
  if ('route' in match) return match.route.operationId;
  return probes.get(path) ?? 'other';
}

interface BoundSeries {
  inc(): void;
  observe(seconds: number): void;
}

/**
 * Counts each finished request by operation and status and observes its latency by operation.
 * prom-client hashes a label set on every inc/observe; each series is bound once here and kept,
 * so a call costs a string key and a Map lookup.
 */
export function callMetrics(
  routing: ContractRouting,
  calls: Counter<'operation' | 'status'>,
  latency: Histogram<'operation'>,
): RequestHandler {
  const bound = new Map<string, BoundSeries>();
  const series = (operation: string, status: number): BoundSeries => {
    const key = `${operation} ${status}`;
    let found = bound.get(key);
    if (found === undefined) {
      const counted = calls.labels(operation, String(status));
      const timed = latency.labels(operation);
      found = { inc: () => counted.inc(), observe: (seconds) => timed.observe(seconds) };
      bound.set(key, found);
    }
    return found;
  };
  return (request, response, next) => {
    const started = performance.now();
    response.once('finish', () => {
      const done = series(operationLabel(request.originalUrl, routing), response.statusCode);
      done.inc();
      done.observe((performance.now() - started) / 1000);
    });
    next();
  };
}
