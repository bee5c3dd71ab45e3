import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cloneContract } from '@quotes/contract';
import { type RunningMock, startMock } from '@quotes/mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { contractOperations, documentedResponses } from '../src/contract/operations.js';
import { assessDreddRun } from '../src/dredd/assessDreddRun.js';
import { runDredd } from '../src/dredd/runDredd.js';
import { planMockTransactions, planServerTransactions } from '../src/dredd/transactionPlan.js';
import { ContractValidator } from '../src/validation/contractValidator.js';
import { ResponseLedger } from '../src/validation/responseLedger.js';
import { startTamperingProxy } from './support/tamperingProxy.js';

let mock: RunningMock;
const scratch: string[] = [];
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock?.stop();
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

async function scratchDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

const expected = documentedResponses();

describe('Dredd against the Prism mock', () => {
  it('executes and passes every documented response, and every body validates', async () => {
    const transactions = planMockTransactions(expected);
    const run = await runDredd({ baseUrl: mock.url, transactions });
    const ledger = new ResponseLedger(new ContractValidator());
    const report = assessDreddRun(run, { label: 'mock', expected, transactions, ledger });
    ledger.addTo(report, 'Layer 2 schema (mock)');
    console.log(report.format());
    expect(report.failures()).toEqual([]);
    expect(report.count('skipped')).toBe(0);
    expect(run.stats).toMatchObject({ total: expected.length, passes: expected.length, skipped: 0 });
    expect(ledger.responseCount).toBe(expected.length);
  });
});

describe('the Dredd layer fails when it should', () => {
  it('fails a response Dredd would pass but whose body breaks the schema', async () => {
    // Dredd compares keys only: `length: 42` (a number, not a Length) passes Dredd itself.
    const proxy = await startTamperingProxy(mock.url, (path, status, body) =>
      path === '/v1/quotes-random' && status === 200 ? { ...(body as object), length: 42 } : body,
    );
    try {
      const transactions = planMockTransactions(expected);
      const run = await runDredd({ baseUrl: proxy.url, transactions });
      const ledger = new ResponseLedger(new ContractValidator());
      const report = assessDreddRun(run, { label: 'tampered mock', expected, transactions, ledger });
      ledger.addTo(report, 'Layer 2 schema (tampered mock)');
      expect(run.stats?.failures).toBe(0);
      const failures = report.failures();
      expect(failures).toHaveLength(1);
      expect(failures[0]?.name).toMatch(/^getRandomQuote 200/);
      expect(failures[0]?.detail).toContain('/length must be string');
    } finally {
      await proxy.close();
    }
  });

  it('fails the run when the hook file does not load (Dredd itself only warns)', async () => {
    const dir = await scratchDir('quotes-broken-hooks-');
    const hookfile = join(dir, 'brokenHooks.cjs');
    await writeFile(hookfile, "require('hooks');\nthrow new Error('broken on purpose');\n");
    const transactions = planMockTransactions(expected);
    const run = await runDredd({ baseUrl: mock.url, transactions, hookfile });
    const report = assessDreddRun(run, { label: 'mock', expected, transactions });
    expect(run.hooks).toBeNull();
    expect(report.failures().map((check) => check.name)).toContain('hooks loaded');
  });

  it('fails the run when the contract documents a response no hook reaches', async () => {
    const contract = cloneContract() as unknown as {
      paths: Record<string, { get: { responses: Record<string, unknown> } }>;
    };
    const usage = contract.paths['/v1/quotes-usage']!.get;
    usage.responses['409'] = {
      description: 'A response added to the contract without teaching the suite to reach it.',
      content: {
        'application/problem+json': {
          schema: { $ref: '#/components/schemas/Problem' },
          example: { type: 'urn:quotes:problem:not-found', title: 't', status: 409, detail: 'd' },
        },
      },
    };
    const dir = await scratchDir('quotes-grown-contract-');
    const contractPath = join(dir, 'quotes.yaml');
    await writeFile(contractPath, stringify(contract));
    const grown = documentedResponses(contractOperations(contract as never));
    const added = grown.find((response) => response.status === 409);
    expect(added).toBeDefined();

    // The server plan has no way to reach it...
    const serverPlan = planServerTransactions(grown, { keys: {}, data: {}, canCauseOutage: false, unknownKey: 'qk_x' });
    expect(serverPlan[added!.transactionName]).toBeUndefined();

    // ...and a Dredd run with the shapes written for the old contract fails on it.
    const transactions = planMockTransactions(expected);
    const run = await runDredd({ baseUrl: mock.url, transactions, contractPath });
    const report = assessDreddRun(run, { label: 'mock', expected: grown, transactions });
    const failed = report.failures().map((check) => check.name);
    expect(failed).toContain(`shape for ${added!.transactionName}`);
    expect(failed.some((name) => name.startsWith(added!.transactionName))).toBe(true);
    expect(failed).toContain('every documented response executed and passed');
  });
});
