/** `error`: the run itself could not happen (exit 2); the report then holds that one check. */
export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'error';

/** One named verdict of the suite. Skips always carry the reason, so none is silent. */
export interface Check {
  readonly layer: string;
  readonly name: string;
  readonly status: CheckStatus;
  readonly detail?: string;
  /** Real time the check took (its requests, or its whole run); unset for a check that did not run. */
  readonly durationMs?: number;
}

export class Report {
  /** The report of a run that could not happen: that one `error` check, with the reason and the time until it stopped. */
  static notPossible(reason: string, durationMs: number): Report {
    const report = new Report();
    report.add({
      layer: 'quotes-conformance',
      name: 'the run could start',
      status: 'error',
      detail: reason,
      durationMs,
    });
    return report;
  }

  readonly checks: Check[] = [];
  /** Lines worth printing whatever the verdicts (seeds, counts, timings). */
  readonly notes: string[] = [];

  add(check: Check): void {
    this.checks.push(check);
  }

  pass(layer: string, name: string, detail?: string, durationMs?: number): void {
    this.add({ layer, name, status: 'passed', detail, durationMs });
  }

  fail(layer: string, name: string, detail: string, durationMs?: number): void {
    this.add({ layer, name, status: 'failed', detail, durationMs });
  }

  skip(layer: string, name: string, reason: string): void {
    this.add({ layer, name, status: 'skipped', detail: reason });
  }

  note(line: string): void {
    this.notes.push(line);
  }

  merge(other: Report): void {
    this.checks.push(...other.checks);
    this.notes.push(...other.notes);
  }

  count(status: CheckStatus): number {
    return this.checks.filter((check) => check.status === status).length;
  }

  failures(): Check[] {
    return this.checks.filter((check) => check.status === 'failed');
  }

  /** The printed summary; its last line is exactly `N passed, M failed`. */
  format(options: { verbose?: boolean } = {}): string {
    const lines: string[] = [];
    const layers = [...new Set(this.checks.map((check) => check.layer))];
    for (const layer of layers) {
      const checks = this.checks.filter((check) => check.layer === layer);
      const passed = checks.filter((check) => check.status === 'passed').length;
      lines.push(`${layer}: ${passed}/${checks.length} passed`);
      for (const check of checks) {
        if (check.status === 'passed' && !options.verbose) continue;
        const mark = { passed: 'ok  ', failed: 'FAIL', skipped: 'SKIP', error: 'ERR ' }[check.status];
        lines.push(`  ${mark} ${check.name}${check.detail ? `: ${indent(check.detail)}` : ''}`);
      }
    }
    if (this.notes.length > 0) lines.push('', ...this.notes);
    const skipped = this.count('skipped');
    if (skipped > 0) lines.push('', `${skipped} skipped (not checked; each reason is listed above)`);
    lines.push('', `${this.count('passed')} passed, ${this.count('failed')} failed`);
    return lines.join('\n');
  }
}

function indent(text: string): string {
  return text.replaceAll('\n', '\n        ');
}
