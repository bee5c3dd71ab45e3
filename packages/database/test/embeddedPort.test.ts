import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type EmbeddedDatabase,
  EmbeddedPortTakenError,
  freePort,
  startEmbeddedPostgres,
  startOnFreePort,
} from '../src/index.js';

const root = await mkdtemp(join(tmpdir(), 'quotes-embedded-port-'));
const dataDir = join(root, 'data');
let holder: Server | undefined;
let cluster: EmbeddedDatabase | undefined;
afterAll(async () => {
  await cluster?.stop();
  await new Promise((resolve) => (holder ? holder.close(resolve) : resolve(undefined)));
  await rm(root, { recursive: true, force: true });
});

describe('the embedded cluster and its port', () => {
  it('says the port was taken when another process listens on it', async () => {
    const port = await freePort();
    holder = createServer();
    await new Promise<void>((resolve) => holder?.listen(port, '127.0.0.1', resolve));
    const start = startEmbeddedPostgres({ dataDir, port, persistent: false, fast: true });
    await expect(start).rejects.toBeInstanceOf(EmbeddedPortTakenError);
    await expect(start).rejects.toThrow(`did not start on port ${port}: another process listens on it`);
  });

  it('without a port, starts on a free one and says which', async () => {
    cluster = await startEmbeddedPostgres({ dataDir, persistent: false, fast: true });
    expect(cluster.adminUrl).toContain(`:${cluster.port}/`);
    const client = new pg.Client(cluster.adminUrl);
    await client.connect();
    try {
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
  });

  it('takes another port only when the one tried was taken, and gives up after five', async () => {
    const tried: number[] = [];
    const started = await startOnFreePort(async (port) => {
      tried.push(port);
      if (tried.length < 3) throw new EmbeddedPortTakenError(`port ${port} taken`);
      return port;
    });
    expect(tried).toHaveLength(3);
    expect(started).toBe(tried[2]);

    let calls = 0;
    const other = startOnFreePort(async () => {
      calls++;
      throw new Error('initdb failed');
    });
    await expect(other).rejects.toThrow('initdb failed');
    expect(calls).toBe(1);

    calls = 0;
    const alwaysTaken = startOnFreePort(async (port) => {
      calls++;
      throw new EmbeddedPortTakenError(`port ${port} taken`);
    });
    await expect(alwaysTaken).rejects.toBeInstanceOf(EmbeddedPortTakenError);
    expect(calls).toBe(5);
  });
});
