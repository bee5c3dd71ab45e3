import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ObservedClient } from '../src/http/observedClient.js';
import { runRequestProperties } from '../src/properties/runProperties.js';
import { Report } from '../src/report/report.js';
import { curlLinesFor } from '../src/report/reportFormats.js';
import { ConformanceSession } from '../src/session.js';
import { readSettings } from '../src/settings.js';
import { ContractValidator } from '../src/validation/contractValidator.js';
import { ResponseLedger } from '../src/validation/responseLedger.js';
import { startTamperingProxy, type Tamper } from './support/tamperingProxy.js';

const settings = readSettings();
let session: ConformanceSession;

beforeAll(async () => {
  session = await ConformanceSession.local({
    corpusSize: settings.corpusSize,
    corpusSeed: settings.corpusSeed,
    databaseUrl: settings.databaseUrl,
    log: (line) => console.log(line),
  });
});

afterAll(async () => {
  if (!session) return;
  await session.close();
  console.log(`\n${session.report.format()}`);
});

function expectClean(report: Report): void {
  console.log(report.format());
  expect(report.failures()).toEqual([]);
  // On a server this suite prepared itself every documented response is reachable: none skipped.
  expect(report.checks.filter((check) => check.status === 'skipped')).toEqual([]);
}

describe('the real server on a fresh database', () => {
  it('Layer 1: Dredd executes and passes every documented response', async () => {
    expectClean(await session.dredd());
  });

  it('Layer 2: unknown paths and other methods answer as problem details', async () => {
    expectClean(await session.protocol());
  });

  it(`Layer 3: ${settings.runs} generated requests keep the contract (seed ${settings.seed})`, async () => {
    console.log(
      `fast-check seed ${settings.seed}, numRuns ${settings.runs} (replay: CONFORMANCE_SEED=${settings.seed} CONFORMANCE_RUNS=${settings.runs})`,
    );
    expectClean(await session.properties({ numRuns: settings.runs, seed: settings.seed, path: settings.path }));
  });

  it('Layer 2: every response seen by the layers above validates against the contract', () => {
    const report = session.schema();
    expectClean(report);
    expect(session.ledger.responseCount).toBeGreaterThan(settings.runs);
  });
});

describe('the suite fails a server that breaks the contract', () => {
  type Body = Record<string, unknown>;

  /** Layers 2 and 3 against the real server behind a proxy that breaks one promise. */
  async function againstTampered(tamper: Tamper): Promise<{ report: Report; ledger: ResponseLedger }> {
    const proxy = await startTamperingProxy(session.baseUrl, tamper);
    try {
      const ledger = new ResponseLedger(new ContractValidator());
      const report = new Report();
      await runRequestProperties(
        new ObservedClient(proxy.url, ledger, 'tampered'),
        session.keys.properties,
        { numRuns: 150, seed: 1 },
        report,
      );
      ledger.addTo(report, 'Layer 2 schema (tampered)');
      return { report, ledger };
    } finally {
      await proxy.close();
    }
  }

  it('a list item with a property the schema does not allow', async () => {
    const { report, ledger } = await againstTampered((path, status, body) =>
      path === '/v1/quotes-filter' && status === 200 ? { ...(body as Body), next_page: null } : body,
    );
    expect(ledger.failures().length).toBeGreaterThan(0);
    expect(
      report
        .failures()
        .map((check) => check.detail)
        .join('\n'),
    ).toContain('must NOT have additional properties (next_page)');
  });

  it('a quote whose length does not follow its text', async () => {
    const { report, ledger } = await againstTampered((path, status, body) => {
      if (path !== '/v1/quotes-random' || status !== 200) return body;
      const quote = body as Body;
      return { ...quote, length: quote.length === 'Long' ? 'Short' : 'Long' };
    });
    // Still a valid Length, so only the semantic invariant can see it.
    expect(ledger.failures()).toEqual([]);
    expect(
      report
        .failures()
        .map((check) => check.detail)
        .join('\n'),
    ).toMatch(/length is (Long|Short) but the text has/);
    // The failure names the request it saw, which the reports turn into a curl line to replay.
    const curls = report.failures().flatMap((check) => curlLinesFor(check, session.baseUrl));
    expect(curls[0]).toMatch(new RegExp(`^curl -sS -i '${session.baseUrl}/v1/quotes-random\\S*'`));
    expect(curls.join('\n')).not.toMatch(/qk_[A-Za-z0-9]{24}/);
  });

  it('a usage counter that moved by one call too many', async () => {
    const { report } = await againstTampered((path, status, body) =>
      path === '/v1/quotes-usage' && status === 200
        ? { ...(body as Body), calls_this_month: Number((body as Body).calls_this_month) + 1 }
        : body,
    );
    // Whichever disagreement surfaces first: the counter itself, or the allowance headers computed from it.
    expect(
      report
        .failures()
        .map((check) => check.detail)
        .join('\n'),
    ).toMatch(
      /calls_this_month is \d+, the suite counted|the usage counter reads|X-RateLimit-Remaining is \d+, expected/,
    );
  });
});
