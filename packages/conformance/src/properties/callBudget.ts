import fc from 'fast-check';
import type { DocumentedResponse } from '../contract/operations.js';
import { operationById } from '../contract/operations.js';
import type { TransactionShape } from '../dredd/fixture.js';
import { RunNotPossible } from '../runNotPossible.js';
import { expectOutcome } from './oracle.js';
import { countedKeyOf, type PropertyKeys, requestsFor } from './runProperties.js';

/** Counted calls by key (the key itself, never printed). */
export type CallsByKey = ReadonlyMap<string, number>;

/** The counted calls the planned Dredd transactions make on each key: those sent with one key to a status that counts. */
export function dreddCalls(
  expected: readonly DocumentedResponse[],
  transactions: Readonly<Record<string, TransactionShape>>,
): CallsByKey {
  const calls = new Map<string, number>();
  for (const response of expected) {
    const shape = transactions[response.transactionName];
    if (!shape || shape.skip || shape.outage || !response.operation.countedStatuses.includes(response.status)) continue;
    const headers = shape.headers ?? {};
    const key = headers['X-API-Key'] ?? headers.Authorization?.replace(/^Bearer /, '');
    if (key && !(headers['X-API-Key'] && headers.Authorization)) calls.set(key, (calls.get(key) ?? 0) + 1);
  }
  return calls;
}

/**
 * For each of the first `numRuns` generated requests (the same ones the run with this seed
 * sends), the key whose counter the oracle expects it to move, or undefined: a refused key, a
 * request the contract answers 400 or 403, or an operation that never counts.
 */
export function layer3CountedKeys(keys: PropertyKeys, seed: number, numRuns: number): Array<string | undefined> {
  return fc.sample(requestsFor(keys), { seed, numRuns }).map((request) => {
    const key = countedKeyOf(request, keys);
    if (!key || request.credential.kind === 'exhausted') return undefined;
    const expectation = expectOutcome(request, operationById(request.operationId), { ...key, used: 0 });
    return expectation.statuses.some((status) => expectation.countedAt.includes(status)) ? key.key : undefined;
  });
}

export interface FittedRuns {
  readonly runs: number;
  /** What the whole run is expected to count on each key: `fixed` plus the generated requests kept. */
  readonly estimate: CallsByKey;
}

/**
 * The most generated requests, up to `requested`, whose counted calls, added to the calls the
 * rest of the run makes on each key (`fixed`: the data search and Dredd), keep every key within
 * `budget`. Refuses (exit 2, before any check) a budget the fixed calls alone pass, or one that
 * leaves no generated request; `name` says which key in words (its role).
 */
export function fitRuns(options: {
  readonly budget: number;
  readonly fixed: CallsByKey;
  readonly perRun: ReadonlyArray<string | undefined>;
  readonly requested: number;
  readonly name: (key: string) => string;
}): FittedRuns {
  const { budget, fixed, perRun, name } = options;
  for (const [key, calls] of fixed) {
    if (calls > budget)
      throw new RunNotPossible(
        `--max-calls-per-key ${budget} is too small: the data search and the Dredd checks alone count ${calls} calls on the ${name(key)} key (give at least ${calls}, or --layers properties)`,
      );
  }
  const estimate = new Map(fixed);
  let runs = 0;
  for (const key of perRun.slice(0, options.requested)) {
    if (key !== undefined && (estimate.get(key) ?? 0) + 1 > budget) break;
    if (key !== undefined) estimate.set(key, (estimate.get(key) ?? 0) + 1);
    runs++;
  }
  if (runs === 0 && options.requested > 0)
    throw new RunNotPossible(
      `--max-calls-per-key ${budget} leaves no room for generated requests after the data search and the Dredd checks; give more, or --layers dredd`,
    );
  return { runs, estimate };
}
