import { randomBytes } from 'node:crypto';
import { documentedResponses } from './contract/operations.js';
import { assessDreddRun } from './dredd/assessDreddRun.js';
import { type OutageControl, runDredd } from './dredd/runDredd.js';
import { type DreddData, planMockTransactions, planServerTransactions } from './dredd/transactionPlan.js';
import { ObservedClient } from './http/observedClient.js';
import { type PropertyOptions, runRequestProperties } from './properties/runProperties.js';
import { Report } from './report/report.js';
import { discoverData } from './target/discoverData.js';
import { describeGivenKeys, type GivenKeys, provisionLocalKeys, type SuiteKeys } from './target/keys.js';
import type { LocalTargetOptions } from './target/localTarget.js';
import { runProtocolChecks } from './target/protocolChecks.js';
import { ContractValidator } from './validation/contractValidator.js';
import { ResponseLedger } from './validation/responseLedger.js';

/** A part of the suite that needs a package not installed: the run cannot happen (exit 2). */
export class MissingCompanion extends Error {
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
  ) {
    this.ledger = ledger;
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
      const keys = await provisionLocalKeys(target.operator);
      const data = await discoverData(new ObservedClient(target.url, ledger, 'discovery'), keys.dredd.limited);
      log(
        `keys: ${keys.properties.active.length} active plan keys and revoked, expired, used-up, nearly-used-up keys provisioned through the operator API`,
      );
      log(`outages for the 503s: ${target.outageKind}`);
      return new ConformanceSession(target.url, keys, data, ledger, target.outage, () => target.close(), log);
    } catch (error) {
      await target.close();
      throw error;
    }
  }

  /** A deployment the suite does not control: keys are given, and what they cannot reach is skipped out loud. */
  static async remote(
    baseUrl: string,
    given: GivenKeys,
    log: (line: string) => void = () => undefined,
  ): Promise<ConformanceSession> {
    const ledger = new ResponseLedger(new ContractValidator());
    const report = new Report();
    const client = new ObservedClient(baseUrl, ledger, 'keys');
    const keys = await describeGivenKeys(client, given, report);
    const data = await discoverData(new ObservedClient(baseUrl, ledger, 'discovery'), keys.dredd.limited);
    const session = new ConformanceSession(baseUrl, keys, data, ledger, undefined, async () => undefined, log);
    session.report.merge(report);
    return session;
  }

  /** Layer 1 against this target. */
  async dredd(): Promise<Report> {
    const expected = documentedResponses();
    const transactions = planServerTransactions(expected, {
      keys: this.keys.dredd,
      data: this.data,
      canCauseOutage: this.outage !== undefined,
      unknownKey: `qk_conformance_unknown_${randomBytes(12).toString('hex')}`,
    });
    const run = await runDredd({ baseUrl: this.baseUrl, transactions, outage: this.outage });
    const report = assessDreddRun(run, { label: 'server', expected, transactions, ledger: this.ledger });
    this.log(`dredd: ${run.stats?.total ?? '?'} transactions in ${(run.durationMs / 1000).toFixed(1)} s`);
    this.report.merge(report);
    return report;
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
    this.ledger.addTo(report, 'Layer 2 schema (server)');
    report.note(`Layer 2: ${this.ledger.responseCount} responses from the server validated against the contract`);
    this.report.merge(report);
    return report;
  }

  close(): Promise<void> {
    return this.closeTarget();
  }
}

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
  readonly propertyOptions: PropertyOptions;
  readonly local: Omit<LocalTargetOptions, 'log'>;
  readonly log?: (line: string) => void;
}

/** Every layer the options ask for, against one target; the CLI's whole job. */
export async function runConformance(options: ConformanceOptions): Promise<Report> {
  const log = options.log ?? (() => undefined);
  const report = new Report();
  const session = options.baseUrl
    ? await ConformanceSession.remote(options.baseUrl, options.keys ?? { plans: {} }, log)
    : await ConformanceSession.local({ ...options.local, log });
  try {
    if (options.dredd) await session.dredd();
    else session.report.skip('Layer 1 Dredd (server)', 'Dredd', 'not asked for (--layers)');
    await session.protocol();
    if (!options.properties)
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
      await session.properties(options.propertyOptions);
    }
    session.schema();
    report.merge(session.report);
  } finally {
    await session.close();
  }
  if (options.mock) report.merge(await checkMock(log));
  return report;
}
