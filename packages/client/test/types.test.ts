import { describe, expectTypeOf, it } from 'vitest';
import {
  createQuotesClient,
  type FilterValues,
  type ParameterError,
  type Quote,
  type QuotePage,
  type QuotesProblemError,
  type Usage,
} from '../src/index.js';

// These assertions are checked by `tsc --noEmit` (the typecheck task), not at run time: they fail
// the build when the client's types drift from the generated contract types.
describe('types follow the contract', () => {
  const client = createQuotesClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k' });

  it('resolves each operation to its 2xx schema', () => {
    expectTypeOf(client.getRandomQuote).returns.resolves.toEqualTypeOf<Quote>();
    expectTypeOf(client.listQuotes).returns.resolves.toEqualTypeOf<QuotePage>();
    expectTypeOf(client.listFilterValues).returns.resolves.toEqualTypeOf<FilterValues>();
    expectTypeOf(client.getUsage).returns.resolves.toEqualTypeOf<Usage>();
    expectTypeOf(client.withMeta.getUsage).returns.resolves.toHaveProperty('data').toEqualTypeOf<Usage>();
  });

  it('takes only the documented query parameters', () => {
    expectTypeOf(client.listQuotes).parameter(0).toEqualTypeOf<
      | {
          category?: string;
          mood?: string;
          length?: string;
          era?: string;
          faith?: string;
          limit?: number;
          offset?: number;
        }
      | undefined
    >();
    // @ts-expect-error a misspelt filter must not compile
    void (() => client.getRandomQuote({ catgory: 'grief' }));
  });

  it('types the problem fields from the Problem schema', () => {
    expectTypeOf<QuotesProblemError['errors']>().toEqualTypeOf<ParameterError[] | undefined>();
    expectTypeOf<QuotesProblemError['status']>().toEqualTypeOf<number>();
  });
});
