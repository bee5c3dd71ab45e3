#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { createDocsFront } from './docsFront.js';
import { startMock } from './startMock.js';

// `quotes-mock` (and `npm run mock` in the repository): on --host:--port (default
// 127.0.0.1:4010, or MOCK_HOST/MOCK_PORT) the API reference page (/docs, /openapi.yaml,
// /openapi.json), and everything else streamed to Prism, which listens on a private port behind it.
const usage = `Usage: quotes-mock [--port 4010] [--host 127.0.0.1]

Serves a mock of the Quote Retrieval Service (Prism, answering the contract's examples) at the
real /v1 paths, and its API reference page at /docs. Any key value is accepted; no key is a 401.
Prefer: code=429 (or 304, 400, 401, 403, 404, 503) picks another documented answer.

  --port N      port to listen on (default 4010, or MOCK_PORT); 0 picks a free one
  --host HOST   address to listen on (default 127.0.0.1, or MOCK_HOST); 0.0.0.0 for every interface
  --help        this text`;

function fail(message: string): never {
  process.stderr.write(`quotes-mock: ${message}\n`);
  process.exit(2);
}

let values: { port?: string | undefined; host?: string | undefined; help?: boolean | undefined };
try {
  ({ values } = parseArgs({
    options: { port: { type: 'string' }, host: { type: 'string' }, help: { type: 'boolean' } },
    strict: true,
    allowPositionals: false,
  }));
} catch (error) {
  fail(`${error instanceof Error ? error.message : String(error)} (see --help)`);
}
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}

const host = values.host || process.env.MOCK_HOST || '127.0.0.1';
const portText = values.port ?? (process.env.MOCK_PORT || '4010');
if (!/^\d+$/.test(portText) || Number(portText) > 65_535) {
  fail(`${values.port !== undefined ? '--port' : 'MOCK_PORT'} must be a port number (0-65535), got "${portText}"`);
}

try {
  const prism = await startMock({ host: '127.0.0.1', port: 0 });
  const front = await createDocsFront({ upstream: prism.url, port: Number(portText), host }).catch(
    async (error: unknown) => {
      await prism.stop();
      throw error;
    },
  );
  console.log(`Mock of the Quote Retrieval Service on ${front.url} (reference page: ${front.url}/docs)`);
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, async () => {
      if (stopping) return;
      stopping = true;
      await front.close();
      await prism.stop();
      process.exit(0);
    });
  }
} catch (error) {
  process.stderr.write(`quotes-mock: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
