import type {
  Category,
  Era,
  FaithTradition,
  GetRandomQuoteData,
  Length,
  ListQuotesData,
  Mood,
} from './generated/types.gen.js';

/**
 * One of the canonical values, offered by the editor's completion, or any other string: the
 * server matches `category` and `mood` as substrings and the other filters ignoring case, so
 * `'grief'` and `'early modern'` are as valid as `'Grief & Loss'` and `'Early Modern'`.
 */
export type Suggested<T extends string> = T | (string & {});

/** The canonical values each filter parameter suggests. */
interface FilterSuggestions {
  category: Category;
  mood: Mood;
  era: Era;
  length: Length;
  faith: FaithTradition;
}

/** The generated query type, with each filter's canonical values suggested. */
type WithSuggestions<Q> = {
  [K in keyof Q]: K extends keyof FilterSuggestions ? Suggested<FilterSuggestions[K]> : Q[K];
};

export type RandomQuoteQuery = WithSuggestions<NonNullable<GetRandomQuoteData['query']>>;
export type ListQuotesQuery = WithSuggestions<NonNullable<ListQuotesData['query']>>;
