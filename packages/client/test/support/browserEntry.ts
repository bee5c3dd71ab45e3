// What a frontend bundles: only the client's entry point, nothing from Node.
import { createQuotesClient, QuotesProblemError } from '../../src/index.js';

declare global {
  interface Window {
    quotesSmoke(baseUrl: string): Promise<{ text: string; problem: string }>;
  }
}

window.quotesSmoke = async (baseUrl) => {
  const quotes = createQuotesClient({ baseUrl, apiKey: 'qk_browser', retry: true, timeoutMs: 5_000 });
  const quote = await quotes.getRandomQuote({ category: 'grief' });
  const anonymous = createQuotesClient({ baseUrl });
  const problem = await anonymous.getUsage().then(
    () => 'no problem',
    (error: unknown) => (error instanceof QuotesProblemError ? error.code : String(error)),
  );
  return { text: quote.text, problem };
};
