import { fileURLToPath } from 'node:url';
import { quoteResults } from './readmeQuotes.js';

/** `npm run quote-results`: quotes results/latest.json (or the file given) in the READMEs. */
const reportPath = process.argv[2] ?? fileURLToPath(new URL('../results/latest.json', import.meta.url));
try {
  const written = await quoteResults(reportPath);
  process.stdout.write(
    written.length > 0 ? `quoted ${reportPath} in ${written.join(', ')}\n` : 'READMEs already quote it\n',
  );
} catch (error) {
  process.stderr.write(`quote-results: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
