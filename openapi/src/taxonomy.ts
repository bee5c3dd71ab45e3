import { loadContract } from './contractDocument.js';

/**
 * The taxonomy exists once, as enums in quotes.yaml. Everything else (server, corpus, tests)
 * reads it from here, so no copy of a value can drift from the contract.
 */
export interface Taxonomy {
  readonly categories: readonly string[];
  readonly moods: readonly string[];
  readonly eras: readonly string[];
  readonly lengths: readonly string[];
  readonly faithTraditions: readonly string[];
  readonly plans: readonly string[];
  readonly problemTypes: readonly string[];
}

function enumOf(schemaName: string): readonly string[] {
  const values = loadContract().components.schemas[schemaName]?.enum;
  if (!values || values.length === 0) {
    throw new Error(`openapi/quotes.yaml: components.schemas.${schemaName} has no enum`);
  }
  return Object.freeze([...values]);
}

export const taxonomy: Taxonomy = Object.freeze({
  categories: enumOf('Category'),
  moods: enumOf('Mood'),
  eras: enumOf('Era'),
  lengths: enumOf('Length'),
  faithTraditions: enumOf('FaithTradition'),
  plans: enumOf('Plan'),
  problemTypes: enumOf('ProblemType'),
});

/** Prefix shared by every problem type URI in the contract. */
export const problemTypePrefix = 'urn:quotes:problem:';
