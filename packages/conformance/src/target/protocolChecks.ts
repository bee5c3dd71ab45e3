import { problemTypePrefix } from '@quotes/contract';
import { contractOperations } from '../contract/operations.js';
import type { ObservedClient } from '../http/observedClient.js';
import type { Report } from '../report/report.js';

/**
 * What the contract's description promises outside the operations: unknown paths answer 404
 * `not-found` and other methods on a known path 405 `method-not-allowed` with an Allow header,
 * both as problem details (the ledger validates their bodies).
 */
export async function runProtocolChecks(
  client: ObservedClient,
  key: string | undefined,
  report: Report,
): Promise<void> {
  const layer = 'Layer 2 off-contract answers';
  const headers: Record<string, string> = key ? { 'X-API-Key': key } : {};
  const [operation] = contractOperations();
  if (!operation) return;
  const cases: Array<{ method: string; path: string; status: number; kind: string }> = [
    { method: 'GET', path: '/v1/conformance-no-such-path', status: 404, kind: 'not-found' },
    { method: 'DELETE', path: operation.path, status: 405, kind: 'method-not-allowed' },
  ];
  for (const check of cases) {
    const exchange = await client.request(check.method, check.path, headers);
    const body = (exchange.json ?? {}) as Record<string, unknown>;
    const name = `${check.method} ${check.path} -> ${check.status} ${check.kind}`;
    const problems = exchange.issues.map((issue) => `${issue.where}: ${issue.message}`);
    if (body.type !== `${problemTypePrefix}${check.kind}`) problems.push(`problem type ${String(body.type)}`);
    if (check.status === 405 && !(exchange.response.headers.allow ?? '').toUpperCase().includes(operation.method)) {
      problems.push(`Allow is ${String(exchange.response.headers.allow)}, it must list ${operation.method}`);
    }
    if (problems.length > 0)
      report.fail(
        layer,
        name,
        `got ${exchange.response.status} to ${exchange.request}\n${problems.join('\n')}`,
        exchange.durationMs,
      );
    else report.pass(layer, name, undefined, exchange.durationMs);
  }
}
