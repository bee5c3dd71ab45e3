/**
 * What a key's holder, or a person who asked for a key, reads of an operator's decision (a
 * revocation, a rejected request): one category from this list, in the terms' words. The
 * operator's own words stay with the operator (the audit, the console, the CLI): they may name
 * other people or an investigation. Every page and mail reads the words from here.
 */
export const decisionCategories = [
  { id: 'terms-bulk-harvest', words: 'terms: harvesting, reselling or redistributing the data' },
  { id: 'terms-competing-service', words: 'terms: building a competing service' },
  { id: 'terms-shared-key', words: 'terms: a shared or published key' },
  { id: 'terms-rotating-trials', words: 'terms: rotating trial accounts' },
  { id: 'abuse', words: 'abuse' },
  { id: 'requested-by-holder', words: 'requested by you' },
  { id: 'non-payment', words: 'non-payment' },
  // The service's own decisions, never the operator's words either.
  { id: 'key-closed', words: 'the key was closed before a decision' },
  { id: 'request-unusable', words: 'the request as sent cannot become a key' },
  { id: 'other', words: 'other' },
] as const;

export type DecisionCategory = (typeof decisionCategories)[number]['id'];

export const decisionCategoryIds: readonly DecisionCategory[] = decisionCategories.map((category) => category.id);

export function isDecisionCategory(value: unknown): value is DecisionCategory {
  return decisionCategoryIds.includes(value as DecisionCategory);
}

/** The words a holder reads; a value not on the list (a row older than it) reads as `other`. */
export function decisionCategoryWords(value: string | null | undefined): string {
  return (decisionCategories.find((category) => category.id === value) ?? decisionCategories.at(-1)!).words;
}

/** A revocation by the key's own holder (their page's "close") is always theirs: `requested-by-holder`. */
export const holderActorPrefix = 'holder:';
