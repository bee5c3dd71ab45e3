export {
  type CallOptions,
  createQuotesClient,
  type FilterValuesResult,
  type ListQuotesQuery,
  type QuotesClient,
  type QuotesClientOptions,
  type QuotesResult,
  type RandomQuoteQuery,
} from './createQuotesClient.js';
export type {
  Category,
  CategoryCount,
  Era,
  FaithTradition,
  FilterValues,
  Length,
  Mood,
  ParameterError,
  Plan,
  Problem,
  ProblemType,
  Quote,
  QuotePage,
  QuoteSummary,
  Usage,
} from './generated/types.gen.js';
export { type IterateQuotesOptions, iterateQuotes } from './paginate.js';
export { QuotesProblemError, type QuotesProblemType } from './problemError.js';
export { parseRateLimit, parseRetryAfter, type RateLimit } from './rateLimit.js';
