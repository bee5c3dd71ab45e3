import { defineConfig } from '@hey-api/openapi-ts';

// Types only: the request and response shapes of every operation, for the server and every
// other package that must follow the contract at compile time.
export default defineConfig({
  input: 'quotes.yaml',
  output: {
    path: 'src/generated',
    // NodeNext resolution needs explicit extensions in relative imports.
    module: { extension: '.js' },
  },
  plugins: ['@hey-api/typescript'],
});
