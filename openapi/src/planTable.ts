import { type ContractDocument, loadContract } from './contractDocument.js';
import { type ContractRules, type PlanRules, readContractRules } from './contractRules.js';
import { allowanceSentence, priceSentence } from './planWording.js';

interface PlanColumn {
  /** The column's header cell, as Markdown. */
  title: string;
  cell(plan: PlanRules, rules: ContractRules): string;
}

/**
 * The plans in three narrow tables, what a key may spend, what one call may ask and what it costs,
 * rather than one of eight: eight columns do not fit the reference page's text column (410 px at a
 * 1280 px window, 342 px on a phone) without breaking words.
 */
const planTableColumns: readonly (readonly PlanColumn[])[] = [
  [
    { title: 'plan', cell: (plan) => plan.id },
    { title: 'allowance', cell: (plan) => allowanceSentence(plan) },
    {
      title: 'calls / second',
      cell: (plan) => (plan.requestsPerSecond !== null ? String(plan.requestsPerSecond) : 'no limit'),
    },
    {
      title: 'validity',
      cell: (plan) =>
        plan.validityDays !== null ? `${plan.validityDays} days from issue` : plan.perKeyLimits ? 'set per key' : '-',
    },
  ],
  [
    { title: 'plan', cell: (plan) => plan.id },
    { title: 'filters per call', cell: (plan) => String(plan.filtersPerCall) },
    {
      title: 'largest page (`limit`)',
      cell: (plan, rules) =>
        plan.perKeyLimits ? `${plan.maxLimit} (or set per key, at most ${rules.pageCeiling})` : String(plan.maxLimit),
    },
    { title: '`faith` filter', cell: (plan) => (plan.faithFilter ? 'yes' : 'no') },
  ],
  [
    { title: 'plan', cell: (plan) => plan.id },
    { title: 'price', cell: (plan) => priceSentence(plan.price) },
  ],
];

function headerOf(columns: readonly PlanColumn[]): string {
  return `| ${columns.map((column) => column.title).join(' | ')} |`;
}

/** The "Keys and plans" tables of the contract's description, written from `info.x-plans`. */
export function planTables(rules: ContractRules): string[] {
  return planTableColumns.map((columns) =>
    [
      headerOf(columns),
      `|${'---|'.repeat(columns.length)}`,
      ...rules.plans.map((plan) => `| ${columns.map((column) => column.cell(plan, rules)).join(' | ')} |`),
    ].join('\n'),
  );
}

/**
 * The contract as the reference page shows it: a copy whose description carries the plan tables
 * written from `info.x-plans`, so the page follows the data even where the prose was not
 * updated (the contract's tests keep the checked-in prose equal to it).
 */
export function describedContract(document: ContractDocument = loadContract()): ContractDocument {
  const copy = structuredClone(document);
  const info = copy.info as { description?: string };
  const lines = (info.description ?? '').split('\n');
  const tables = planTables(readContractRules(document));
  planTableColumns.forEach((columns, index) => {
    const start = lines.indexOf(headerOf(columns));
    if (start < 0)
      throw new Error(`openapi/quotes.yaml: the description has no plan table starting ${headerOf(columns)}`);
    let end = start;
    while (end < lines.length && lines[end]?.startsWith('|')) end++;
    lines.splice(start, end - start, tables[index] as string);
  });
  info.description = lines.join('\n');
  return copy;
}
