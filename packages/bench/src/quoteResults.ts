import { fileURLToPath } from 'node:url';
import { quoteResults } from './readmeQuotes.js';

/** `npm run quote-results`: renders results/latest.json (or the file given) again beside it and quotes it in the READMEs. */
const reportPath = process.argv[2] ?? fileURLToPath(new URL('../results/latest.json', import.meta.url));
try {
  const written = await quoteResults(reportPath);
  process.stdout.write(
    written.length > 0
      ? `quoted ${reportPath} in ${written.join(', ')}\n`
      : 'its renderings and the READMEs already hold it\n',
  );
} catch (error) {
  process.stderr.write(`quote-results: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
