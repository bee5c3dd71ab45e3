import { createDocsFront, type RunningDocsFront, type RunningMock, startMock } from '@quotes/mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConformanceOptions, mockSkips, runConformance } from '../src/session.js';
import { TargetLooksLikeMock } from '../src/target/mockLikeness.js';

// The suite against a running quotes-mock (Prism behind its front, as the bin starts it).
let prism: RunningMock;
let mock: RunningDocsFront;

beforeAll(async () => {
  prism = await startMock();
  mock = await createDocsFront({ upstream: prism.url, port: 0 });
});
afterAll(async () => {
  await mock?.close();
  await prism?.stop();
});

/** The suite as `--target mock` runs it, against `baseUrl`, with the layers asked for. */
function againstMock(baseUrl: string, layers: Pick<ConformanceOptions, 'dredd' | 'properties'>) {
  return runConformance({
    baseUrl,
    targetIsMock: true,
    ...layers,
    mock: false,
    propertyOptions: { numRuns: 10, seed: 1 },
    local: { corpusSize: 1, corpusSeed: 1, databaseUrl: undefined },
  });
}

describe('--target mock', () => {
  it('passes every check a mock can pass and skips the rest, each with its reason', async () => {
    const report = await againstMock(mock.url, { dredd: true, properties: true });
    console.log(report.format());
    expect(report.failures()).toEqual([]);
    const skipped = report.checks.filter((check) => check.status === 'skipped');
    expect(skipped.map((check) => check.name)).toEqual(mockSkips.map(([what]) => what));
    for (const check of skipped) expect(check.detail ?? '').not.toBe('');
    const layers = new Set(report.checks.filter((check) => check.status === 'passed').map((check) => check.layer));
    expect([...layers].sort()).toEqual([
      'Layer 1 Dredd (mock)',
      'Layer 2 off-contract answers',
      'Layer 2 schema (mock)',
    ]);
  });

  it('a mock checked as a server is named as the mock, with what that means for key roles, before any check', async () => {
    const asServer = runConformance({
      baseUrl: mock.url,
      keys: { plans: { trial: 'qk_conformance_trial' }, revoked: 'qk_conformance_revoked' },
      dredd: true,
      properties: true,
      mock: false,
      propertyOptions: { numRuns: 10, seed: 1 },
      local: { corpusSize: 1, corpusSeed: 1, databaseUrl: undefined },
    });
    await expect(asServer).rejects.toThrow(TargetLooksLikeMock);
    await expect(asServer).rejects.toThrow(
      new RegExp(
        `^${mock.url} looks like the mock \\(Prism\\), not a server: quotes-usage answered 200 to a key no deployment issued.*run with --target mock`,
      ),
    );
  });

  it('fails a mock that answers as the server would not', async () => {
    // Prism alone, without the front: its 404 and 405 are its own problem types, not the contract's.
    const report = await againstMock(prism.url, { dredd: false, properties: false });
    expect(report.failures().length).toBeGreaterThan(0);
  });
});
