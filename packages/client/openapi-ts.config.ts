import { createRequire } from 'node:module';
import { defineConfig } from '@hey-api/openapi-ts';

// Resolved through @quotes/contract's export map so generation works before the contract
// workspace is built (turbo's generate task has no ^build dependency).
const contract = createRequire(import.meta.url).resolve('@quotes/contract/quotes.yaml');

export default defineConfig({
  input: contract,
  output: {
    path: 'src/generated',
    // NodeNext resolution needs explicit extensions in relative imports.
    module: { extension: '.js' },
  },
  plugins: ['@hey-api/client-fetch', { name: '@hey-api/typescript', enums: 'javascript' }, '@hey-api/sdk'],
});
