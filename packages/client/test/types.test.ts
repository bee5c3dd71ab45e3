import { describe, expectTypeOf, it } from 'vitest';
import {
  type Category,
  createQuotesClient,
  type Era,
  type FaithTradition,
  type FilterValues,
  type ParameterError,
  type Quote,
  type QuotePage,
  type QuotesProblemError,
  type QuotesProblemCode,
  type QuotesProblemType,
  type Suggested,
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

  it('takes only the documented query parameters, suggesting the canonical values of each filter', () => {
    expectTypeOf(client.listQuotes).parameter(0).toEqualTypeOf<
      | {
          category?: Suggested<Category>;
          mood?: Suggested<
            'challenging' | 'dark' | 'humorous' | 'inspirational' | 'poignant' | 'reflective' | 'serious' | 'uplifting'
          >;
          length?: Suggested<'Short' | 'Medium' | 'Long'>;
          era?: Suggested<Era>;
          faith?: Suggested<FaithTradition>;
          limit?: number;
          offset?: number;
        }
      | undefined
    >();
    // Any string the server accepts still compiles: substrings, other cases.
    void (() => client.getRandomQuote({ category: 'grief', era: 'early modern', length: 'short', mood: 'inspir' }));
    // @ts-expect-error a misspelt filter must not compile
    void (() => client.getRandomQuote({ catgory: 'grief' }));
  });

  it('keeps the enums of the contract in the quote, nullable ones included', () => {
    expectTypeOf<Quote['era']>().toEqualTypeOf<Era>();
    expectTypeOf<Quote['category']>().toEqualTypeOf<Category>();
    expectTypeOf<Quote['secondary_category']>().toEqualTypeOf<Category | null>();
    expectTypeOf<Quote['faith_tradition']>().toEqualTypeOf<FaithTradition | null>();
  });

  it('types the problem fields from the Problem schema', () => {
    expectTypeOf<QuotesProblemError['errors']>().toEqualTypeOf<ParameterError[] | undefined>();
    expectTypeOf<QuotesProblemError['status']>().toEqualTypeOf<number>();
    expectTypeOf<QuotesProblemCode>().toEqualTypeOf<
      | 'invalid-request'
      | 'missing-api-key'
      | 'invalid-api-key'
      | 'conflicting-api-keys'
      | 'revoked-api-key'
      | 'expired-api-key'
      | 'origin-not-allowed'
      | 'plan-limit'
      | 'no-match'
      | 'not-found'
      | 'method-not-allowed'
      | 'rate-limited'
      | 'allowance-exhausted'
      | 'internal-error'
      | 'service-unavailable'
      | 'cross-site-request'
      | 'request-too-large'
      | 'too-many-key-requests'
      | 'unknown'
    >();
  });

  // A switch over every problem code, compiler-checked, is the consumer test's app code
  // (packages/consumer/test/fixture/useClient.ts), typechecked strictly against the packed client.
  it('refuses a misspelt problem type at compile time', () => {
    const byType = (type: QuotesProblemType) => {
      // @ts-expect-error a misspelt problem type is not comparable to the union
      return type === 'urn:quotes:problem:plan-limt';
    };
    void byType;
  });
});
