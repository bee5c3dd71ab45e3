import express from 'express';
import { responseExample } from '@quotes/contract';

/**
 * The framework's floor: a bare Express 5 app on the same Node answering every GET with one
 * fixed quote (the contract's own example). Nothing the real server does can be cheaper.
 * Run as its own process so it gets a core the way the server does.
 */
const fixedQuote = JSON.stringify(responseExample('/v1/quotes-random', '200'));

const app = express();
app.disable('x-powered-by');
app.get('/{*path}', (_request, response) => {
  response.type('application/json').send(fixedQuote);
});
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
