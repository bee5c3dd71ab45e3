import { randomBytes } from 'node:crypto';
import { operationById } from '../contract/operations.js';
import type { ObservedClient } from '../http/observedClient.js';
import { RunNotPossible } from '../runNotPossible.js';

/** `--base-url` answers as the mock does, while the run was asked to check a server. */
export class TargetLooksLikeMock extends RunNotPossible {
  override readonly name = 'TargetLooksLikeMock';
}

/**
 * One free call that tells a mock from a server: `quotes-usage` with a key no deployment issued.
 * A server answers 401 (and never counts it); the mock (Prism) accepts any key and answers its
 * example. Its other marks (Prism's `sl-violations` header, no `X-Request-Id`) are named as seen.
 */
export async function refuseMockTarget(client: ObservedClient): Promise<void> {
  const unknownKey = `qk_conformance_probe_${randomBytes(12).toString('hex')}`;
  const exchange = await client.get(operationById('getUsage').path, { 'X-API-Key': unknownKey });
  if (exchange.response.status !== 200) return;
  const { headers } = exchange.response;
  const marks = [
    'quotes-usage answered 200 to a key no deployment issued',
    ...('sl-violations' in headers ? ["it sends Prism's sl-violations header"] : []),
    ...(!('x-request-id' in headers) ? ['it sends no X-Request-Id'] : []),
  ];
  throw new TargetLooksLikeMock(
    `${client.baseUrl} looks like the mock (Prism), not a server: ${marks.join('; ')}. A mock accepts any key, so no key there has the plan or state its role says; to check a mock, run with --target mock and no keys`,
  );
}
