import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '@quotes/service-base';
import { startServer } from '../src/index.js';
import { startCommand } from '../testing/serviceProcess.js';
import { testConfig, testDataDir } from '../testing/testConfig.js';
import { createTestDatabase } from '@quotes/database/testing';

describe('startServer from a configuration', () => {
  it('opens and migrates the database itself, serves, and closes what it opened', async () => {
    const database = await createTestDatabase();
    try {
      const server = await startServer({ config: testConfig({ DATABASE_URL: database.url }) });
      const issued = await server.operator.createKey({ client: 'Config start', plan: 'starter' });
      const answer = await fetch(`${server.url}/v1/quotes-usage`, { headers: { 'X-API-Key': issued.key } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/json');
      await server.close();
      expect(server.database.pool.ending || server.database.pool.ended).toBe(true);
    } finally {
      await database.drop();
    }
  });

  it('exits with one line when its port is taken, instead of hanging on its open connections', async () => {
    const database = await createTestDatabase();
    const blocker = createServer().listen(0, '127.0.0.1');
    try {
      await once(blocker, 'listening');
      const port = (blocker.address() as AddressInfo).port;
      const { code, stderr } = await startAsShipped({ DATABASE_URL: database.url, PORT: String(port) });
      expect(code, stderr).toBe(1);
      // One line naming the variable to set, with a port to try.
      expect(stderr.trim()).toBe(
        `quotes server: cannot start: 127.0.0.1:${port} is in use (another server running?); set PORT to a free port, e.g. PORT=${port + 1} npm start`,
      );
    } finally {
      blocker.close();
      await database.drop();
    }
  });

  it('refuses to listen on every address without PUBLIC_BASE_URL, in one line naming it', async () => {
    const database = await createTestDatabase();
    try {
      // Both started side by side: each is its own process, refused at its own start.
      const hosts = ['0.0.0.0', '::'];
      const exits = await Promise.all(
        hosts.map((host) => startAsShipped({ DATABASE_URL: database.url, HOST: host, PORT: '0' })),
      );
      for (const [index, host] of hosts.entries()) {
        const { code, stderr } = exits[index]!;
        expect(code, stderr).toBe(1);
        expect(stderr.trim().split('\n')).toHaveLength(1);
        expect(stderr).toMatch(
          new RegExp(`^quotes server: PUBLIC_BASE_URL: HOST=${host.replace(/\./g, '\\.')} listens on every address`),
        );
      }
    } finally {
      await database.drop();
    }
  });

  it('names a bad variable instead of starting', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('refuses transaction pooling without a pooler or without a direct way to LISTEN', () => {
    const pooler = 'postgres://quotes:x@127.0.0.1:6432/quotes';
    expect(() => parseConfig({ DATABASE_POOL_MODE: 'transaction' })).toThrow(
      /DATABASE_POOL_MODE: transaction needs DATABASE_URL/,
    );
    expect(() => parseConfig({ DATABASE_URL: pooler, DATABASE_POOL_MODE: 'transaction' })).toThrow(
      /DATABASE_LISTEN_URL: required with DATABASE_POOL_MODE=transaction/,
    );
    expect(() => parseConfig({ DATABASE_POOL_MODE: 'statement' })).toThrow(/DATABASE_POOL_MODE/);
    const config = parseConfig({
      DATABASE_URL: pooler,
      DATABASE_LISTEN_URL: 'postgres://quotes:x@127.0.0.1:5432/quotes',
      DATABASE_POOL_MODE: 'transaction',
    });
    expect(config.DATABASE_POOL_MODE).toBe('transaction');
    expect(parseConfig({}).DATABASE_POOL_MODE).toBe('session');
  });

  it('fails /readyz for SHUTDOWN_DRAIN_MS after close() begins, still answering calls, then closes its port', async () => {
    expect(parseConfig({}).SHUTDOWN_DRAIN_MS).toBe(0);
    expect(() => parseConfig({ SHUTDOWN_GRACE_MS: '4000', SHUTDOWN_DRAIN_MS: '3000' })).toThrow(
      /SHUTDOWN_DRAIN_MS: at most half of SHUTDOWN_GRACE_MS/,
    );
    const database = await createTestDatabase();
    try {
      const server = await startServer({
        config: testConfig({ DATABASE_URL: database.url, SHUTDOWN_DRAIN_MS: '800' }),
      });
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      const closing = server.close();
      const started = performance.now();
      const readiness = await fetch(`${server.url}/readyz`);
      expect(readiness.status).toBe(503);
      expect(readiness.headers.get('retry-after')).toBe('1');
      const live = await fetch(`${server.url}/healthz`);
      expect(live.status).toBe(200);
      expect(live.headers.get('connection')).toBe('close');
      // An API call (dispatched outside Express) is told to close too.
      const call = await fetch(`${server.url}/v1/quotes-random`);
      expect(call.status).toBe(401);
      expect(call.headers.get('connection')).toBe('close');
      await closing;
      expect(performance.now() - started).toBeGreaterThanOrEqual(700);
      await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    } finally {
      await database.drop();
    }
  });

  it('writes counted calls every COUNT_FLUSH_MS, 200 ms unless set, and names a bad value', () => {
    expect(parseConfig({}).COUNT_FLUSH_MS).toBe(200);
    expect(parseConfig({ COUNT_FLUSH_MS: '50' }).COUNT_FLUSH_MS).toBe(50);
    expect(() => parseConfig({ COUNT_FLUSH_MS: '0' })).toThrow(/COUNT_FLUSH_MS/);
    expect(() => parseConfig({ COUNT_FLUSH_MS: '60000' })).toThrow(/COUNT_FLUSH_MS/);
  });

  it('serves metrics only when METRICS_PORT is set, on loopback unless METRICS_HOST says otherwise', () => {
    expect(parseConfig({}).METRICS_PORT).toBeUndefined();
    expect(parseConfig({ METRICS_PORT: '' }).METRICS_PORT).toBeUndefined();
    expect(parseConfig({ METRICS_PORT: '9101' })).toMatchObject({ METRICS_PORT: 9101, METRICS_HOST: '127.0.0.1' });
    expect(() => parseConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  });
});

/**
 * The built entry point with the start script's flags, as npm start runs it, until it exits: its
 * exit code and stderr are the contract here.
 */
async function startAsShipped(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const start = startCommand();
  const child = spawn(process.execPath, start.args, {
    env: { ...process.env, ...start.env, LOG_LEVEL: 'silent', CORPUS_SIZE: '0', DATA_DIR: testDataDir, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stderr };
}
