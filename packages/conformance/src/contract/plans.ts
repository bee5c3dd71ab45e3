import { type ContractDocument, loadContract, taxonomy } from '@quotes/contract';

/** A plan's rules as the contract's "Keys and plans" table states them. */
export interface PlanRules {
  readonly plan: string;
  /** null: unlimited, or set per key (see `perKey`). */
  readonly monthlyCalls: number | null;
  readonly filtersPerCall: number;
  /** Largest page; for per-key plans the default when the key sets none. */
  readonly maxLimit: number;
  readonly faithFilter: boolean;
  /** Allowance and page size may be set on each key (enterprise). */
  readonly perKey: boolean;
}

function number(text: string): number | null {
  const match = /^[\d,]+/.exec(text.trim());
  return match ? Number(match[0].replaceAll(',', '')) : null;
}

/**
 * Reads the plan table out of the contract's description, so the rules exist in one place.
 * Fails loudly when the table changes shape rather than guessing.
 */
export function planRules(document: ContractDocument = loadContract()): ReadonlyMap<string, PlanRules> {
  const description = String((document.info as { description?: string }).description ?? '');
  const rules = new Map<string, PlanRules>();
  for (const line of description.split('\n')) {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    const plan = cells[0];
    if (cells.length < 5 || plan === undefined || !taxonomy.plans.includes(plan)) continue;
    const [, calls = '', filters = '', page = '', faith = ''] = cells;
    const filtersPerCall = number(filters);
    const maxLimit = number(page);
    if (filtersPerCall === null || maxLimit === null || !/^(yes|no)$/.test(faith)) {
      throw new Error(`openapi/quotes.yaml: cannot read the plan table row for ${plan}: "${line.trim()}"`);
    }
    rules.set(plan, {
      plan,
      monthlyCalls: number(calls),
      filtersPerCall,
      maxLimit,
      faithFilter: faith === 'yes',
      perKey: /per key/.test(calls),
    });
  }
  const missing = taxonomy.plans.filter((plan) => !rules.has(plan));
  if (missing.length > 0) throw new Error(`openapi/quotes.yaml: the plan table has no row for ${missing.join(', ')}`);
  return rules;
}
