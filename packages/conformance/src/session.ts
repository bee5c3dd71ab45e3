import { randomBytes } from 'node:crypto';
import { documentedResponses, operationById } from './contract/operations.js';
import { assessDreddRun } from './dredd/assessDreddRun.js';
import { type OutageControl, runDredd } from './dredd/runDredd.js';
import type { TransactionShape } from './dredd/fixture.js';
import { type DreddData, planMockTransactions, planServerTransactions } from './dredd/transactionPlan.js';
import { ObservedClient } from './http/observedClient.js';
import { dreddCalls, fitRuns, layer3CountedKeys } from './properties/callBudget.js';
import { type PropertyOptions, runRequestProperties } from './properties/runProperties.js';
import { Report } from './report/report.js';
import { RunNotPossible } from './runNotPossible.js';
import { discoverData } from './target/discoverData.js';
import { checkGivenKeys, type GivenKeys } from './target/givenKeys.js';
import { provisionLocalKeys, type SuiteKeys } from './target/keys.js';
import type { LocalTargetOptions } from './target/localTarget.js';
import { refuseMockTarget } from './target/mockLikeness.js';
import { runProtocolChecks } from './target/protocolChecks.js';
import { ContractValidator } from './validation/contractValidator.js';
import { ResponseLedger } from './validation/responseLedger.js';

/** A part of the suite that needs a package not installed: the run cannot happen (exit 2). */
export class MissingCompanion extends RunNotPossible {
  override readonly name = 'MissingCompanion';
  constructor(message: string, cause: unknown) {
    super(message, { cause });
  }
}

/**
 * One target under test and everything the layers share: the keys, the discovered data, and the
 * ledger every response of every layer goes through (Layer 2).
 */
export class ConformanceSession {
  readonly report = new Report();
  readonly ledger: ResponseLedger;

  private constructor(
    readonly baseUrl: string,
    readonly keys: SuiteKeys,
    readonly data: DreddData,
    ledger: ResponseLedger,
    private readonly outage: OutageControl | undefined,
    private readonly closeTarget: () => Promise<void>,
    private readonly log: (line: string) => void,
    /** Each active key's count this month before the run, to say what the run spent. */
    private readonly callsBefore: ReadonlyMap<string, number> = new Map(),
    /** The target is the mock (`--target mock`): any key works, nothing is counted, no plan applies. */
    readonly isMock = false,
  ) {
    this.ledger = ledger;
  }

  /**
   * A running mock (quotes-mock): every documented answer is picked with `Prefer: code=N`, as the
   * mock documents; what needs real keys, plans, counting or data is the server's and skipped.
   */
  static mockTarget(baseUrl: string, log: (line: string) => void = () => undefined): ConformanceSession {
    const ledger = new ResponseLedger(new ContractValidator());
    const keys: SuiteKeys = { dredd: { limited: mockKey }, properties: { active: [] } };
    return new ConformanceSession(baseUrl, keys, {}, ledger, undefined, async () => undefined, log, new Map(), true);
  }

  /** The real server on a fresh database the session prepares (embedded, or a new database on DATABASE_URL). */
  static async local(options: LocalTargetOptions): Promise<ConformanceSession> {
    const log = options.log ?? (() => undefined);
    const ledger = new ResponseLedger(new ContractValidator());
    // Loaded only here: it needs this repository's server, which the published package does not carry.
    const { startLocalTarget } = await import('./target/localTarget.js').catch((error: unknown) => {
      throw new MissingCompanion(
        "without --base-url the suite starts this repository's server (@quotes/server), which is not installed here; pass --base-url",
        error,
      );
    });
    const target = await startLocalTarget({ ...options, ledger });
    try {
      const keys = await provisionLocalKeys(target.operator, target.setUsage);
      const data = await discoverData(new ObservedClient(target.url, ledger, 'discovery'), keys.dredd.limited);
      log(
        `keys: ${keys.properties.active.length} active plan keys and revoked, expired, used-up, nearly-used-up keys provisioned through the operator API`,
      );
      log(`outages for the 503s: ${target.outageKind}`);
      const fresh = new Map(keys.properties.active.map((key) => [key.key, 0]));
      return new ConformanceSession(target.url, keys, data, ledger, target.outage, () => target.close(), log, fresh);
    } catch (error) {
      await target.close();
      throw error;
    }
  }

  /**
   * A deployment the suite does not control: keys are given, and what they cannot reach is skipped
   * out loud. A target that answers like the mock, or a key that is not what its role says, ends
   * the run here, before any check.
   */
  static async remote(
    baseUrl: string,
    given: GivenKeys,
    log: (line: string) => void = () => undefined,
  ): Promise<ConformanceSession> {
    const ledger = new ResponseLedger(new ContractValidator());
    const report = new Report();
    const client = new ObservedClient(baseUrl, ledger, 'keys');
    await refuseMockTarget(client);
    const { keys, callsBefore } = await checkGivenKeys(client, given, report);
    const data = await discoverData(new ObservedClient(baseUrl, ledger, 'discovery'), keys.dredd.limited);
    const session = new ConformanceSession(
      baseUrl,
      keys,
      data,
      ledger,
      undefined,
      async () => undefined,
      log,
      callsBefore,
    );
    session.report.merge(report);
    return session;
  }

  /** Layer 1 against this target. */
  async dredd(): Promise<Report> {
    const expected = documentedResponses();
    if (this.isMock) {
      const transactions = planMockTransactions(expected);
      const run = await runDredd({ baseUrl: this.baseUrl, transactions });
      const report = assessDreddRun(run, { label: 'mock', expected, transactions, ledger: this.ledger });
      this.log(`dredd (mock): ${run.stats?.total ?? '?'} transactions in ${(run.durationMs / 1000).toFixed(1)} s`);
      this.report.merge(report);
      return report;
    }
    const transactions = this.serverTransactions();
    const run = await runDredd({ baseUrl: this.baseUrl, transactions, outage: this.outage });
    const report = assessDreddRun(run, { label: 'server', expected, transactions, ledger: this.ledger });
    this.log(`dredd: ${run.stats?.total ?? '?'} transactions in ${(run.durationMs / 1000).toFixed(1)} s`);
    this.report.merge(report);
    return report;
  }

  private planned: Record<string, TransactionShape> | undefined;

  /** How each documented response is reached on this server, planned once. */
  private serverTransactions(): Record<string, TransactionShape> {
    this.planned ??= planServerTransactions(documentedResponses(), {
      keys: this.keys.dredd,
      data: this.data,
      canCauseOutage: this.outage !== undefined,
      unknownKey: `qk_conformance_unknown_${randomBytes(12).toString('hex')}`,
    });
    return this.planned;
  }

  /**
   * Fits the run to `--max-calls-per-key`: the generated requests scaled down so that, with the
   * calls the data search made and the Dredd transactions will make, no key is expected to count
   * more than `budget` calls, and a ceiling on each key's counter that the run never passes.
   * Refuses, before any check, a budget too small for the fixed calls.
   */
  async fitBudget(budget: number, layers: { dredd: boolean; properties: boolean }, options: PropertyOptions) {
    const fixed = new Map(await this.countedSoFar());
    if (layers.dredd) {
      for (const [key, calls] of dreddCalls(documentedResponses(), this.serverTransactions()))
        fixed.set(key, (fixed.get(key) ?? 0) + calls);
    }
    // Layer 3 runs only with an active key (runConformance skips it otherwise).
    const generated = layers.properties && this.keys.properties.active.length > 0;
    const { runs, estimate } = fitRuns({
      budget,
      fixed,
      perRun: generated ? layer3CountedKeys(this.keys.properties, options.seed, options.numRuns) : [],
      requested: generated ? options.numRuns : 0,
      name: (key) => this.keys.properties.active.find((active) => active.key === key)?.plan ?? 'provisioned Dredd',
    });
    if (generated)
      this.log(
        `--max-calls-per-key ${budget}: ${runs} of ${options.numRuns} generated requests, expected to count ${this.perPlan(estimate)}`,
      );
    const counterCeiling = new Map([...this.callsBefore].map(([key, before]) => [key, before + budget]));
    return { ...options, numRuns: runs, counterCeiling };
  }

  /** `trial 142, starter 161`: calls by key, named by their plans. */
  private perPlan(calls: ReadonlyMap<string, number>): string {
    return this.keys.properties.active
      .filter((key) => calls.has(key.key))
      .map((key) => `${key.plan} ${calls.get(key.key)}`)
      .join(', ');
  }

  /** Off-contract answers (unknown path, other method), validated as problem details. */
  async protocol(): Promise<Report> {
    const report = new Report();
    await runProtocolChecks(new ObservedClient(this.baseUrl, this.ledger, 'protocol'), this.keys.dredd.limited, report);
    this.report.merge(report);
    return report;
  }

  /** Layer 3 against this target. */
  async properties(options: PropertyOptions): Promise<Report> {
    const report = new Report();
    const started = Date.now();
    await runRequestProperties(
      new ObservedClient(this.baseUrl, this.ledger, 'properties'),
      this.keys.properties,
      options,
      report,
    );
    this.log(`properties: ${options.numRuns} runs in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    report.note(`Layer 3: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    this.report.merge(report);
    return report;
  }

  /** Layer 2's verdict on every response seen so far, by operation and status. */
  schema(): Report {
    const report = new Report();
    const target = this.isMock ? 'mock' : 'server';
    this.ledger.addTo(report, `Layer 2 schema (${target})`);
    report.note(`Layer 2: ${this.ledger.responseCount} responses from the ${target} validated against the contract`);
    this.report.merge(report);
    return report;
  }

  /** Calls counted on each active key since the session began, read with one free quotes-usage call per key. */
  private async countedSoFar(): Promise<Map<string, number>> {
    const client = new ObservedClient(this.baseUrl, this.ledger, 'usage');
    const counted = new Map<string, number>();
    for (const key of this.keys.properties.active) {
      const before = this.callsBefore.get(key.key);
      if (before === undefined) continue;
      const exchange = await client.get(operationById('getUsage').path, { 'X-API-Key': key.key });
      const now = (exchange.json as { calls_this_month?: unknown } | undefined)?.calls_this_month;
      if (typeof now === 'number') counted.set(key.key, now - before);
    }
    return counted;
  }

  /** `calls counted per key by this run: trial 142, ...`; undefined when no key's count is known. */
  async callsCountedLine(): Promise<string | undefined> {
    const counted = await this.countedSoFar();
    return counted.size > 0 ? `calls counted per key by this run: ${this.perPlan(counted)}` : undefined;
  }

  close(): Promise<void> {
    return this.closeTarget();
  }
}

/** The key sent to a mock: it accepts any. */
const mockKey = 'qk_conformance_mock';

/** Why Layer 3 is not run against a mock, one line per kind of check it would make. */
export const mockSkips: ReadonlyArray<readonly [string, string]> = [
  [
    'counting and the allowance headers of real calls',
    'the mock counts each key value in its own memory until it stops, not in a durable counter',
  ],
  [
    'plans of real keys (filters per call, faith, largest page, 403 plan-limit)',
    'the mock has no keys: any key is accepted, on the one plan it was started with',
  ],
  [
    'revoked, expired and used-up keys, allowed origins',
    'the mock has no keys: pick those answers with Prefer: code=403 or 429',
  ],
  [
    'answers that fit the data (filters matched, pages, totals, no-match, ETag revalidation)',
    'the mock has no corpus: its answers are its example quotes, or a quote adapted to the filters',
  ],
];

/** Layer 1 against the Prism mock: the mock is proved to speak the same contract. */
export async function checkMock(log: (line: string) => void = () => undefined): Promise<Report> {
  const { startMock } = await import('@quotes/mock').catch((error: unknown) => {
    throw new MissingCompanion('--mock needs @quotes/mock installed beside @quotes/conformance', error);
  });
  const mock = await startMock();
  try {
    const expected = documentedResponses();
    const transactions = planMockTransactions(expected);
    const run = await runDredd({ baseUrl: mock.url, transactions });
    const ledger = new ResponseLedger(new ContractValidator());
    const report = assessDreddRun(run, { label: 'mock', expected, transactions, ledger });
    ledger.addTo(report, 'Layer 2 schema (mock)');
    log(`mock: ${run.stats?.total ?? '?'} transactions in ${(run.durationMs / 1000).toFixed(1)} s`);
    return report;
  } finally {
    await mock.stop();
  }
}

export interface ConformanceOptions {
  /** A deployment to check; unset: the real server started here on a fresh database. */
  readonly baseUrl?: string;
  readonly keys?: GivenKeys;
  readonly dredd: boolean;
  readonly properties: boolean;
  /** Dredd against the Prism mock as well. */
  readonly mock: boolean;
  /** The target at baseUrl is a mock (quotes-mock), not a server. */
  readonly targetIsMock?: boolean;
  readonly propertyOptions: PropertyOptions;
  /** Counted calls the run may spend on any one key; unset: no limit. */
  readonly maxCallsPerKey?: number;
  readonly local: Omit<LocalTargetOptions, 'log'>;
  readonly log?: (line: string) => void;
}

/** Every layer the options ask for, against one target; the CLI's whole job. */
export async function runConformance(options: ConformanceOptions): Promise<Report> {
  const log = options.log ?? (() => undefined);
  const report = new Report();
  const session =
    options.baseUrl && options.targetIsMock
      ? ConformanceSession.mockTarget(options.baseUrl, log)
      : options.baseUrl
        ? await ConformanceSession.remote(options.baseUrl, options.keys ?? { plans: {} }, log)
        : await ConformanceSession.local({ ...options.local, log });
  try {
    const propertyOptions =
      options.maxCallsPerKey !== undefined && !session.isMock
        ? await session.fitBudget(options.maxCallsPerKey, options, options.propertyOptions)
        : options.propertyOptions;
    if (options.dredd) await session.dredd();
    else
      session.report.skip(`Layer 1 Dredd (${session.isMock ? 'mock' : 'server'})`, 'Dredd', 'not asked for (--layers)');
    await session.protocol();
    if (session.isMock) {
      for (const [what, why] of mockSkips) session.report.skip('Layer 3 properties', what, why);
    } else if (!options.properties)
      session.report.skip('Layer 3 properties', 'generated requests', 'not asked for (--layers)');
    else if (session.keys.properties.active.length === 0)
      session.report.skip('Layer 3 properties', 'generated requests', 'needs at least one active key (--key-<plan>)');
    else {
      const missing = [
        ['a revoked key', session.keys.properties.revoked, '--key-revoked'],
        ['an expired key', session.keys.properties.expired, '--key-expired'],
        ['a used-up allowance', session.keys.properties.exhausted, '--key-exhausted'],
      ].filter(([, key]) => !key);
      for (const [what, , flag] of missing)
        session.report.skip('Layer 3 properties', `requests with ${what}`, `no ${flag} given`);
      await session.properties(propertyOptions);
    }
    const counted = await session.callsCountedLine();
    if (counted) {
      log(counted);
      session.report.note(counted);
    }
    session.schema();
    report.merge(session.report);
  } finally {
    await session.close();
  }
  if (options.mock) report.merge(await checkMock(log));
  return report;
}
