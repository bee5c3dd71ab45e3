import type { Check, Report } from './report.js';
import { curlLine, requestLinesIn } from './requestLine.js';

export interface RunDescription {
  /** The target checked, for the curl lines and the suite's properties. */
  readonly baseUrl: string;
  readonly startedAt: Date;
  readonly durationMs: number;
}

/** XML 1.0 forbids most control characters even escaped; they are dropped. */
function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/** The curl lines for the requests a failed check names, ready to paste. */
export function curlLinesFor(check: Check, baseUrl: string): string[] {
  return requestLinesIn(check.detail ?? '').map((request) => curlLine(baseUrl, request));
}

/** JUnit's `time`: seconds, with the millisecond the suite measured. */
function seconds(durationMs: number): string {
  return (durationMs / 1000).toFixed(3);
}

function testcase(check: Check, baseUrl: string): string {
  const open = `    <testcase classname="${xml(check.layer)}" name="${xml(check.name)}" time="${seconds(check.durationMs ?? 0)}"`;
  if (check.status === 'passed') return `${open}/>`;
  if (check.status === 'skipped')
    return `${open}>\n      <skipped message="${xml(check.detail ?? '')}"/>\n    </testcase>`;
  const detail = check.detail ?? '';
  const message = detail.split('\n')[0] ?? '';
  if (check.status === 'error')
    return `${open}>\n      <error message="${xml(message)}" type="run-not-possible">${xml(detail)}</error>\n    </testcase>`;
  const curls = curlLinesFor(check, baseUrl);
  const body = curls.length > 0 ? `${detail}\n\nReplay:\n${curls.join('\n')}` : detail;
  return `${open}>\n      <failure message="${xml(message)}" type="contract">${xml(body)}</failure>\n    </testcase>`;
}

function totalMs(checks: readonly Check[]): number {
  return checks.reduce((sum, check) => sum + (check.durationMs ?? 0), 0);
}

/**
 * JUnit XML as CI systems read it (Jenkins, GitLab, GitHub test reporters): one testsuite per
 * layer, one testcase per check, failures with the request as a curl line, skips with the reason.
 */
export function junitReport(report: Report, run: RunDescription): string {
  const layers = [...new Set(report.checks.map((check) => check.layer))];
  const suites = layers.map((layer) => {
    const checks = report.checks.filter((check) => check.layer === layer);
    const count = (status: Check['status']) => checks.filter((check) => check.status === status).length;
    return [
      `  <testsuite name="${xml(layer)}" tests="${checks.length}" failures="${count('failed')}" errors="${count('error')}" skipped="${count('skipped')}" time="${seconds(totalMs(checks))}" timestamp="${run.startedAt.toISOString().slice(0, 19)}">`,
      ...checks.map((check) => testcase(check, run.baseUrl)),
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="quotes-conformance ${xml(run.baseUrl)}" tests="${report.checks.length}" failures="${report.count('failed')}" errors="${report.count('error')}" skipped="${report.count('skipped')}" time="${seconds(run.durationMs)}">`,
    ...suites,
    report.notes.length > 0 ? `  <!-- ${xml(report.notes.join(' | ')).replaceAll('--', '- -')} -->` : '',
    '</testsuites>',
    '',
  ]
    .filter((line) => line !== '')
    .join('\n')
    .concat('\n');
}

/** The same verdicts as JSON, for scripts. */
export function jsonReport(report: Report, run: RunDescription): string {
  return `${JSON.stringify(
    {
      target: run.baseUrl,
      startedAt: run.startedAt.toISOString(),
      durationMs: run.durationMs,
      passed: report.count('passed'),
      failed: report.count('failed'),
      skipped: report.count('skipped'),
      errors: report.count('error'),
      checks: report.checks.map((check) => ({
        layer: check.layer,
        name: check.name,
        status: check.status,
        ...(check.detail !== undefined ? { detail: check.detail } : {}),
        ...(check.durationMs !== undefined ? { durationMs: Math.round(check.durationMs) } : {}),
        ...(check.status === 'failed' ? { curl: curlLinesFor(check, run.baseUrl) } : {}),
      })),
      notes: report.notes,
    },
    null,
    2,
  )}\n`;
}
