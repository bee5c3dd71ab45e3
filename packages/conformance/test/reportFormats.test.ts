import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { Report } from '../src/report/report.js';
import { jsonReport, junitReport } from '../src/report/reportFormats.js';
import { curlLine, requestLine, requestLinesIn } from '../src/report/requestLine.js';

const run = { baseUrl: 'http://127.0.0.1:3000', startedAt: new Date('2026-11-23T12:00:00Z'), durationMs: 1234 };

function sampleReport(): Report {
  const report = new Report();
  report.pass('Layer 1 Dredd (server)', '/v1/quotes-random > Random quote > 200 > application/json', undefined, 250);
  report.fail(
    'Layer 2 schema (server)',
    'getRandomQuote 200 (2 responses)',
    `1 violate the contract\n[properties] ${requestLine('GET', "/v1/quotes-random?category=o'brien&mood=<dark>", ['X-API-Key'])} -> 200\n  - body.era: must be equal to one of the allowed values`,
  );
  report.skip('Layer 1 Dredd (server)', '/v1/quotes-random > Random quote > 429', 'no --key-exhausted given');
  report.fail('Layer 1 Dredd (server)', 'hooks loaded and ran to the end', 'no hooks report \u0001 at all');
  report.note('Total time: 1.2 s');
  return report;
}

describe('request lines', () => {
  it('name the credential headers, never their values, and read back', () => {
    const line = requestLine('GET', '/v1/quotes-usage', ['X-API-Key', 'Authorization', 'Prefer']);
    expect(line).toBe('GET /v1/quotes-usage [X-API-Key, Authorization]');
    expect(requestLine('GET', '/v1/quotes-usage', [])).toBe('GET /v1/quotes-usage [no key]');
    expect(requestLinesIn(`before ${line} -> 401\nand again ${line}`)).toEqual([
      { method: 'GET', pathAndQuery: '/v1/quotes-usage', credentials: ['X-API-Key', 'Authorization'] },
    ]);
  });

  it('become curl lines with the keys as variables, quoted for the shell', () => {
    const [request] = requestLinesIn(
      requestLine('GET', "/v1/quotes-random?author=o'brien", ['x-api-key', 'authorization']),
    );
    expect(curlLine('http://h:1', request!)).toBe(
      `curl -sS -i 'http://h:1/v1/quotes-random?author=o'\\''brien' -H "X-API-Key: $QUOTES_KEY" -H "Authorization: Bearer $QUOTES_OTHER_KEY"`,
    );
  });
});

describe('JUnit report', () => {
  const xml = junitReport(sampleReport(), run);
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as {
    testsuites: {
      tests: string;
      failures: string;
      skipped: string;
      testsuite: Array<{ name: string; testcase: Array<Record<string, unknown>> | Record<string, unknown> }>;
    };
  };

  it('is well-formed XML with the totals', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(parsed.testsuites).toMatchObject({ tests: '4', failures: '2', skipped: '1' });
  });

  it('has one testsuite per layer and one testcase per check', () => {
    const suites = parsed.testsuites.testsuite;
    expect(suites.map((suite) => suite.name)).toEqual(['Layer 1 Dredd (server)', 'Layer 2 schema (server)']);
    const cases = suites.flatMap((suite) => (Array.isArray(suite.testcase) ? suite.testcase : [suite.testcase]));
    expect(cases.map((testcase) => testcase.name)).toEqual([
      '/v1/quotes-random > Random quote > 200 > application/json',
      '/v1/quotes-random > Random quote > 429',
      'hooks loaded and ran to the end',
      'getRandomQuote 200 (2 responses)',
    ]);
    expect(cases[1]).toMatchObject({ skipped: { message: 'no --key-exhausted given' } });
    expect(cases.map((testcase) => testcase.time)).toEqual(['0.250', '0.000', '0.000', '0.000']);
  });

  it('of a run that could not happen: one error testcase with the reason', () => {
    const reason = 'keys file: role "trial" (qk_no…) answered 401 invalid-api-key';
    const failed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      junitReport(Report.notPossible(reason, 420), run),
    ) as { testsuites: { errors: string; testsuite: { testcase: Record<string, unknown> } } };
    expect(failed.testsuites.errors).toBe('1');
    expect(failed.testsuites.testsuite.testcase).toMatchObject({
      time: '0.420',
      error: { message: reason, type: 'run-not-possible' },
    });
  });

  it('carries the failed request as a curl line, escaped, and never a key', () => {
    expect(xml).toContain(
      `curl -sS -i &apos;http://127.0.0.1:3000/v1/quotes-random?category=o&apos;\\&apos;&apos;brien&amp;mood=&lt;dark&gt;&apos; -H &quot;X-API-Key: $QUOTES_KEY&quot;`,
    );
    expect(xml).not.toContain('\u0001');
  });
});

describe('JSON report', () => {
  it('lists every check with its status, and curl lines for failures', () => {
    const json = JSON.parse(jsonReport(sampleReport(), run)) as {
      passed: number;
      failed: number;
      skipped: number;
      checks: Array<{ status: string; curl?: string[] }>;
    };
    expect(json).toMatchObject({ passed: 1, failed: 2, skipped: 1 });
    expect(json.checks).toHaveLength(4);
    expect(json.checks[1]!.curl).toEqual([
      `curl -sS -i 'http://127.0.0.1:3000/v1/quotes-random?category=o'\\''brien&mood=<dark>' -H "X-API-Key: $QUOTES_KEY"`,
    ]);
  });
});
