import { readFile } from 'node:fs/promises';
import express from 'express';
import type { CapturedAnswer } from './answerCapture.js';

/**
 * The same-bytes floor: a bare Express 5 app on the same Node answering every URL with the very
 * status, headers and body the server answered it with (captured first, see
 * answerCapture.ts), so a 30 KB page is compared with 30 KB, not with one small quote. Nothing
 * the real server does can be cheaper. Run as its own process so it gets a core the way the
 * server does, one per corpus size.
 */
const answersFile = process.env.CAPTURED_ANSWERS ?? '';
let answers = new Map<string, CapturedAnswer & { bytes: Buffer }>();

async function loadAnswers(): Promise<void> {
  const captured = JSON.parse(await readFile(answersFile, 'utf8')) as Record<string, CapturedAnswer>;
  answers = new Map(
    Object.entries(captured).map(([url, answer]) => [url, { ...answer, bytes: Buffer.from(answer.body, 'base64') }]),
  );
}

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.get('/{*path}', (request, response) => {
  const answer = answers.get(request.originalUrl);
  if (!answer) {
    response.status(599).end();
    return;
  }
  response.status(answer.status);
  // Node's setHeader, as the server writes them: Express's set() would add '; charset=utf-8' to the type.
  for (const [name, value] of Object.entries(answer.headers ?? {})) response.setHeader(name, value);
  if (answer.contentType) response.setHeader('Content-Type', answer.contentType);
  response.send(answer.bytes);
});

await loadAnswers();
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
