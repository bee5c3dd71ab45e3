import type { DocumentedResponse } from '../contract/operations.js';
import { Report } from '../report/report.js';
import { requestLine } from '../report/requestLine.js';
import type { ResponseLedger } from '../validation/responseLedger.js';
import type { TransactionShape } from './fixture.js';
import type { DreddRun } from './runDredd.js';

export interface AssessOptions {
  /** Label of the target in check names, e.g. "server" or "mock". */
  readonly label: string;
  /** Every documented response of the contract: each must be one executed, passing transaction. */
  readonly expected: readonly DocumentedResponse[];
  readonly transactions: Readonly<Record<string, TransactionShape>>;
  /** Validates what Dredd saw (Layer 2), since Dredd itself only compares keys. */
  readonly ledger?: ResponseLedger;
}

function warnings(output: string): string {
  const lines = output
    .split('\n')
    .filter((line) => /^(warn|error)/.test(line) && !/API description parser warning/.test(line));
  return lines.slice(0, 8).join('\n');
}

/**
 * Turns a Dredd run into checks, refusing to trust Dredd's exit code alone: the hooks must have
 * loaded (Dredd only warns when they do not), every documented response must have been executed
 * and passed, and nothing may be skipped unless the plan says why.
 */
export function assessDreddRun(run: DreddRun, options: AssessOptions): Report {
  const report = new Report();
  const layer = `Layer 1 Dredd (${options.label})`;
  const expectedNames = options.expected.map((response) => response.transactionName);

  if (!run.hooks) {
    report.fail(
      layer,
      'hooks loaded',
      `the hook file did not load, so no transaction was shaped (Dredd only warns about this)\n${warnings(run.output)}`,
    );
  } else if (!run.hooks.finished) {
    report.fail(
      layer,
      'hooks ran to the end',
      `Dredd stopped before its afterAll hook (exit ${run.exitCode})\n${warnings(run.output)}`,
    );
  } else {
    report.pass(layer, 'hooks loaded and ran to the end');
  }

  if (!run.stats) {
    report.fail(
      layer,
      'Dredd statistics',
      `no "complete:" line in Dredd's output (exit ${run.exitCode})\n${run.output.slice(-1500)}`,
    );
  } else {
    const { passes, failures, errors, skipped, total } = run.stats;
    const allowedSkips = expectedNames.filter((name) => options.transactions[name]?.skip).length;
    const problems: string[] = [];
    if (total !== expectedNames.length)
      problems.push(`${total} transactions, the contract documents ${expectedNames.length} responses`);
    if (failures + errors > 0) problems.push(`${failures} failing, ${errors} errors`);
    if (skipped !== allowedSkips) problems.push(`${skipped} skipped, ${allowedSkips} skips were planned`);
    if (passes !== total - allowedSkips) problems.push(`${passes} passing of ${total}`);
    if (run.exitCode !== 0) problems.push(`dredd exited with ${run.exitCode}`);
    const summary = `${passes} passing, ${failures} failing, ${errors} errors, ${skipped} skipped, ${total} total in ${(run.durationMs / 1000).toFixed(1)} s`;
    if (problems.length > 0)
      report.fail(layer, 'every documented response executed and passed', `${problems.join('; ')} (${summary})`);
    else report.pass(layer, 'every documented response executed and passed', summary, run.durationMs);
  }

  if (run.hooks) {
    for (const name of run.hooks.unshaped)
      report.fail(layer, `shape for ${name}`, 'Dredd produced this transaction but nothing reaches it');
    for (const name of run.hooks.unused)
      report.fail(
        layer,
        `shape for ${name}`,
        'planned, but Dredd produced no such transaction (renamed operation or summary?)',
      );
    const results = new Map(run.hooks.transactions.map((transaction) => [transaction.name, transaction]));
    const records = new Map(run.records.map((record) => [record.name, record]));
    for (const name of expectedNames) {
      const shape = options.transactions[name];
      const title = `${name}${shape ? ` (${shape.purpose})` : ''}`;
      const result = results.get(name);
      if (shape?.skip) report.skip(layer, title, shape.skip);
      else if (!result) report.fail(layer, title, 'Dredd did not run it');
      else if (result.status === 'pass') report.pass(layer, title, undefined, result.durationMs);
      else {
        const sent = records.get(name)?.request;
        const request = sent ? `\n${requestLine(sent.method, sent.uri, sent.headerNames)}` : '';
        report.fail(layer, title, `${result.message.trim() || `status ${result.status}`}${request}`, result.durationMs);
      }
    }
  }

  if (run.recoveries.length > 0) {
    const times = run.recoveries.map((ms) => `${ms} ms`).join(', ');
    report.note(
      `Dredd (${options.label}): ${run.recoveries.length} database outages; the database restarted and the server answered again within ${times} of each outage ending`,
    );
  }

  if (options.ledger) {
    const times = new Map(run.hooks?.transactions.map((transaction) => [transaction.name, transaction.durationMs]));
    for (const record of run.records) {
      const [path = ''] = record.request.uri.split('?');
      const headers = Object.fromEntries(
        Object.entries(record.response.headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
      );
      options.ledger.record(
        `dredd ${options.label}`,
        requestLine(record.request.method, record.request.uri, record.request.headerNames),
        {
          method: record.request.method,
          path,
          status: record.response.status,
          headers,
          body: record.response.body,
        },
        times.get(record.name),
      );
    }
  }
  return report;
}
