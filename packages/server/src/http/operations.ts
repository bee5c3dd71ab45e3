import type {
  GetRandomQuoteData,
  GetRandomQuoteResponses,
  GetUsageResponses,
  ListFilterValuesResponses,
  ListQuotesData,
  ListQuotesResponses,
} from '@quotes/contract';

/**
 * Every operation of the contract, by operationId, with its query and its 200 body as the types
 * generated from the contract have them: a parameter or a response field renamed there fails the
 * server's typecheck wherever it is read or written.
 */
export interface Operations {
  getRandomQuote: { query: NonNullable<GetRandomQuoteData['query']>; body: GetRandomQuoteResponses[200] };
  listQuotes: { query: NonNullable<ListQuotesData['query']>; body: ListQuotesResponses[200] };
  listFilterValues: { query: Record<string, never>; body: ListFilterValuesResponses[200] };
  getUsage: { query: Record<string, never>; body: GetUsageResponses[200] };
}

export type OperationId = keyof Operations;

/** The operationIds above, at run time: the routing refuses a contract with other operations. */
export const operationIds: ReadonlySet<string> = new Set(
  Object.keys({
    getRandomQuote: true,
    listQuotes: true,
    listFilterValues: true,
    getUsage: true,
  } satisfies Record<OperationId, true>),
);
