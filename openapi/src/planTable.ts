import { type ContractDocument, loadContract } from './contractDocument.js';
import { type ContractRules, readContractRules } from './contractRules.js';

const header = [
  '| plan | calls / month | filters per call | largest page (`limit`) | `faith` filter | validity | calls / second |',
  '|---|---|---|---|---|---|---|',
];

/** The "Keys and plans" table of the contract's description, written from `info.x-plans`. */
export function planTable(rules: ContractRules): string {
  const rows = rules.plans.map((plan) => {
    const calls =
      plan.monthlyCalls !== null
        ? plan.monthlyCalls.toLocaleString('en-US')
        : plan.perKeyLimits
          ? 'set per key'
          : 'unlimited';
    const page = plan.perKeyLimits
      ? `${plan.maxLimit} (or set per key, at most ${rules.pageCeiling})`
      : String(plan.maxLimit);
    const validity =
      plan.validityDays !== null ? `${plan.validityDays} days from issue` : plan.perKeyLimits ? 'set per key' : '-';
    const perSecond = plan.requestsPerSecond !== null ? String(plan.requestsPerSecond) : 'no limit';
    return `| ${plan.id} | ${calls} | ${plan.filtersPerCall} | ${page} | ${plan.faithFilter ? 'yes' : 'no'} | ${validity} | ${perSecond} |`;
  });
  return [...header, ...rows].join('\n');
}

/**
 * The contract as the reference page shows it: a copy whose description carries the plan table
 * written from `info.x-plans`, so the page follows the data even where the prose was not
 * updated (the contract's tests keep the checked-in prose equal to it).
 */
export function describedContract(document: ContractDocument = loadContract()): ContractDocument {
  const copy = structuredClone(document);
  const info = copy.info as { description?: string };
  const lines = (info.description ?? '').split('\n');
  const start = lines.indexOf(header[0] as string);
  if (start < 0) throw new Error('openapi/quotes.yaml: the description has no plan table to write');
  let end = start;
  while (end < lines.length && lines[end]?.startsWith('|')) end++;
  lines.splice(start, end - start, planTable(readContractRules(document)));
  info.description = lines.join('\n');
  return copy;
}
