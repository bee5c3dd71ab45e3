#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { rules } from '@quotes/contract';
import { createDocsFront } from './docsFront.js';
import { defaultMockPlan, mockPlan } from './serverParity.js';
import { startMock } from './startMock.js';

// `quotes-mock` (and `npm run mock` in the repository): on --host:--port (default
// 127.0.0.1:4010, or MOCK_HOST/MOCK_PORT/PORT) the API reference page (/docs, /openapi.yaml,
// /openapi.json), and everything else streamed to Prism, which listens on a private port behind it.
const usage = `Usage: quotes-mock [--port 4010] [--host 127.0.0.1] [--plan ${defaultMockPlan}]

Serves a mock of the Quote Retrieval Service at the real /v1 paths, answering from example
quotes of the server's corpus, and its API reference page at /docs. Any key value is accepted; no
key is a 401. Prefer: code=404 (or 304, 400, 401, 403, 429, 503) picks a documented answer instead;
Prefer: example=rate-limited (or calls-at-once) gives the server's 429 for too many calls, on
quotes-random, quotes-filter and quotes-categories; quotes-usage never answers 429 (its 200 instead).

  --port N      port to listen on (default 4010, or MOCK_PORT, or PORT); 0 picks a free one
  --host HOST   address to listen on (default 127.0.0.1, or MOCK_HOST); 0.0.0.0 for every interface
  --plan PLAN   the plan every key is on: its largest page, allowance and filters (default
                ${defaultMockPlan}, or MOCK_PLAN; one of ${rules.plans.map((rule) => rule.id).join(', ')})
  --help        this text`;

function fail(message: string): never {
  process.stderr.write(`quotes-mock: ${message}\n`);
  process.exit(2);
}

let values: {
  port?: string | undefined;
  host?: string | undefined;
  plan?: string | undefined;
  help?: boolean | undefined;
};
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      plan: { type: 'string' },
      help: { type: 'boolean' },
    },
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
// PORT too, as a platform that hands a process its port sets it; MOCK_PORT wins, so a shell that
// sets PORT for the server can still run the mock beside it.
const portSource =
  values.port !== undefined ? '--port' : process.env.MOCK_PORT ? 'MOCK_PORT' : process.env.PORT ? 'PORT' : undefined;
const portText = values.port ?? (process.env.MOCK_PORT || process.env.PORT || '4010');
if (!/^\d+$/.test(portText) || Number(portText) > 65_535) {
  fail(`${portSource} must be a port number (0-65535), got "${portText}"`);
}
const plan = values.plan ?? (process.env.MOCK_PLAN || defaultMockPlan);
try {
  mockPlan(plan);
} catch (error) {
  fail(
    `${values.plan !== undefined ? '--plan' : 'MOCK_PLAN'}: ${error instanceof Error ? error.message : String(error)}`,
  );
}

try {
  const prism = await startMock({ host: '127.0.0.1', port: 0 });
  const front = await createDocsFront({ upstream: prism.url, port: Number(portText), host, plan }).catch(
    async (error: unknown) => {
      await prism.stop();
      throw error;
    },
  );
  console.log(
    `Mock of the Quote Retrieval Service on ${front.url} (reference page: ${front.url}/docs), every key on the ${plan} plan`,
  );
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
