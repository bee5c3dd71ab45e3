import type { Report } from '../report/report.js';
import type { ContractValidator, ObservedResponse, ValidationIssue } from './contractValidator.js';

export interface LedgerFailure {
  readonly source: string;
  readonly request: string;
  readonly response: ObservedResponse;
  readonly issues: readonly ValidationIssue[];
}

interface Tally {
  responses: number;
  /** The time of those responses' requests, summed. */
  ms: number;
  failures: LedgerFailure[];
}

/**
 * Layer 2: every response the suite sees goes through here and is validated against the
 * contract, whichever layer produced it. The ledger keeps a tally per operation and status and
 * the failing responses in full, so a report can show exactly what broke.
 */
export class ResponseLedger {
  private readonly tallies = new Map<string, Tally>();
  private total = 0;

  constructor(private readonly validator: ContractValidator) {}

  /** Validates one response (its request took `durationMs`); returns its issues (empty when it keeps the contract). */
  record(source: string, request: string, response: ObservedResponse, durationMs = 0): readonly ValidationIssue[] {
    const { operationId, issues } = this.validator.validate(response);
    const key = `${operationId ?? `${response.method} ${response.path}`} ${response.status}`;
    let tally = this.tallies.get(key);
    if (!tally) {
      tally = { responses: 0, ms: 0, failures: [] };
      this.tallies.set(key, tally);
    }
    tally.responses++;
    tally.ms += durationMs;
    this.total++;
    if (issues.length > 0) tally.failures.push({ source, request, response, issues });
    return issues;
  }

  get responseCount(): number {
    return this.total;
  }

  failures(): LedgerFailure[] {
    return [...this.tallies.values()].flatMap((tally) => tally.failures);
  }

  /** One check per operation and status seen: "getRandomQuote 200: 512 responses". */
  addTo(report: Report, layer = 'Layer 2 schema'): void {
    for (const [key, tally] of [...this.tallies].sort(([a], [b]) => a.localeCompare(b))) {
      const name = `${key} (${tally.responses} response${tally.responses === 1 ? '' : 's'})`;
      if (tally.failures.length === 0) {
        report.pass(layer, name, undefined, tally.ms);
        continue;
      }
      const shown = tally.failures.slice(0, 3).map(describeFailure).join('\n');
      const more = tally.failures.length > 3 ? `\n... and ${tally.failures.length - 3} more` : '';
      report.fail(layer, name, `${tally.failures.length} violate the contract\n${shown}${more}`, tally.ms);
    }
  }
}

export function describeFailure(failure: LedgerFailure): string {
  const issues = failure.issues.map((issue) => `  - ${issue.where}: ${issue.message}`).join('\n');
  const body = failure.response.body.length > 300 ? `${failure.response.body.slice(0, 300)}...` : failure.response.body;
  return `[${failure.source}] ${failure.request} -> ${failure.response.status}\n${issues}\n  body: ${body}`;
}
