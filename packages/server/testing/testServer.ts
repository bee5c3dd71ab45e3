import { rules } from '@quotes/contract';
import { Writable } from 'node:stream';
import type { DatabaseHandle } from '@quotes/database';
import type { Clock } from '@quotes/accounts/rules';
import { createLogger, type Logger } from '@quotes/service-base';
import type { CreateKeyInput, IssuedKey } from '@quotes/accounts';
import { type RunningServer, startServer } from '../src/startServer.js';
import { type ApiAnswer, expectConformsToContract, expectProblemBody, operationIdFor } from './contractValidation.js';
import { testConfig } from './testConfig.js';

/** A clock tests move by hand (month ends, expiries). */
export interface ManualClock {
  readonly clock: Clock;
  set(instant: Date | string): void;
  advance(milliseconds: number): void;
}

export function manualClock(start: Date | string): ManualClock {
  let now = new Date(start);
  return {
    clock: () => new Date(now),
    set: (instant) => {
      now = new Date(instant);
    },
    advance: (milliseconds) => {
      now = new Date(now.getTime() + milliseconds);
    },
  };
}

/** Log lines a test can search (e.g. for a leaked key). */
export function capturedLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  // The server's own logger (with its redaction), writing to memory.
  return { logger: createLogger({ level: 'debug', destination: stream }), lines };
}

export interface TestServer extends RunningServer {
  /** GET (or another method) on the server, validated against the contract before it is returned. */
  call(path: string, options?: CallOptions): Promise<ApiAnswer>;
  createKey(input: Partial<CreateKeyInput> & { plan: string }): Promise<IssuedKey>;
}

export interface CallOptions {
  key?: string;
  bearer?: string;
  method?: string;
  headers?: Record<string, string>;
  /** Skip the contract check (for answers outside the contract, e.g. /healthz). */
  unchecked?: boolean;
}

export async function callServer(baseUrl: string, path: string, options: CallOptions = {}): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['X-API-Key'] = options.key;
  if (options.bearer !== undefined) headers.Authorization = `Bearer ${options.bearer}`;
  const method = options.method ?? 'GET';
  const response = await fetch(`${baseUrl}${path}`, { method, headers });
  const text = await response.text();
  const answer: ApiAnswer = {
    status: response.status,
    headers: response.headers,
    contentType: response.headers.get('content-type'),
    body: text === '' ? undefined : JSON.parse(text),
  };
  if (!options.unchecked && method !== 'HEAD') {
    const operationId = await operationIdFor(method, path.split('?')[0]!);
    if (operationId) await expectConformsToContract(operationId, answer);
    else await expectProblemBody(answer);
  }
  return answer;
}

export async function startTestServer(
  database: DatabaseHandle,
  options: { clock?: Clock; logger?: Logger; random?: () => number } = {},
): Promise<TestServer> {
  const server = await startServer({
    config: testConfig(),
    database,
    clock: options.clock,
    logger: options.logger,
    random: options.random,
    shutdownGraceMs: 2000,
  });
  return {
    ...server,
    close: () => server.close(),
    call: (path, callOptions) => callServer(server.url, path, callOptions),
    // Tests issue many trials to one client: the one-trial-per-person rule has its own tests.
    // A per-key plan's allowance is chosen out loud: unlimited unless the test names one.
    createKey: (input) =>
      server.operator.createKey({
        client: `Test client (${input.plan})`,
        allowAnotherTrial: true,
        unlimited: rules.planById.get(input.plan)?.perKeyLimits === true && input.monthlyCalls == null,
        ...input,
      }),
  };
}

export const problemType = (answer: ApiAnswer) =>
  (answer.body as { type?: string } | undefined)?.type?.replace('urn:quotes:problem:', '');

/** Calls quotes-usage with `key` until it answers `status`; the milliseconds that took, failing after `withinMs`. */
export async function untilStatus(server: TestServer, key: string, status: number, withinMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const answer = await server.call('/v1/quotes-usage', { key });
    if (answer.status === status) return Date.now() - started;
    if (Date.now() - started > withinMs) throw new Error(`still ${answer.status} after ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
