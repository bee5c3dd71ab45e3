import { apiCompare } from 'api-smart-diff';

export type ChangeType = 'breaking' | 'non-breaking' | 'annotation' | 'unclassified' | 'deprecated';

/** One difference between two versions of the contract, classified for the contract's users. */
export interface ContractChange {
  type: ChangeType;
  action: 'add' | 'remove' | 'replace' | 'rename';
  /** Where in the document: under `paths`, with every `$ref` followed into the operation using it. */
  path: Array<string | number>;
  before?: unknown;
  after?: unknown;
  /** Set when this package's rules, not the tool's, made the change breaking. */
  reason?: string;
}

// api-smart-diff reports a change to a shared component twice: once where it is declared, judged
// without knowing whether a request or a response uses it, and once in each operation that uses
// it, judged by that direction. Only the second is what a user meets.
const resolvedIntoOperations = new Set(['schemas', 'parameters', 'responses', 'headers', 'requestBodies', 'examples']);

const inResponse = (path: ContractChange['path']) => path[0] === 'paths' && path[3] === 'responses';

/**
 * Where this contract's users break although the tool's generic rules say otherwise. Each rule
 * returns true to make a change breaking.
 */
const breakingRules: Array<{ why: string; applies: (change: ContractChange) => boolean }> = [
  {
    // The tool calls a value dropped from a response enum harmless; here the response enums are also
    // the filters' vocabulary (`x-filter`) and the problem types clients switch on.
    why: 'a removed enum value',
    applies: ({ action, path }) => action === 'remove' && path.at(-2) === 'enum',
  },
  {
    // The tool flips every response rule, so `integer` becoming `string` in a response passes.
    why: 'a changed type, in a request or a response',
    applies: ({ action, path }) => action === 'replace' && path.at(-1) === 'type' && path.at(-2) !== 'properties',
  },
  {
    // The tool reads `nullable` like `readOnly` (true = stricter); a response that may now be null
    // breaks every client that reads the field.
    why: 'a response value that may now be null',
    applies: ({ path, after }) => inResponse(path) && path.at(-1) === 'nullable' && after === true,
  },
  {
    // The tool calls dropping one of several key schemes harmless; every client using it breaks.
    why: 'a removed security requirement',
    applies: ({ action, path }) => action === 'remove' && typeof path.at(-1) === 'number' && path.at(-2) === 'security',
  },
];

/** Every difference from `base` to `head` (two parsed OpenAPI 3.0 documents), classified. */
export function compareContracts(base: object, head: object): ContractChange[] {
  const { diffs } = apiCompare(structuredClone(base), structuredClone(head));
  return diffs
    .filter(({ path }) => !(path[0] === 'components' && resolvedIntoOperations.has(String(path[1]))))
    .map(({ type, action, path, before, after }) => {
      const change: ContractChange = { type, action, path, before, after };
      const rule = change.type === 'breaking' ? undefined : breakingRules.find(({ applies }) => applies(change));
      return rule ? { ...change, type: 'breaking', reason: rule.why } : change;
    });
}
