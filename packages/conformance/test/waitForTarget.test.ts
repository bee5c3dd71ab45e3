import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TargetUnreachable, waitForTarget } from '../src/target/waitForTarget.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A real server whose /readyz answers the statuses given in turn, then the last one forever. */
async function readyz(statuses: number[]): Promise<{ url: string; probes: () => number }> {
  let probes = 0;
  server = createServer((request, response) => {
    probes++;
    const status = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
    response.writeHead(request.url === '/readyz' ? status : 500).end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, probes: () => probes };
}

async function closedPort(): Promise<string> {
  const target = await readyz([200]);
  await new Promise((resolve) => server!.close(resolve));
  server = undefined;
  return target.url;
}

describe('waitForTarget', () => {
  it('without waiting, one refused probe is TargetUnreachable naming the reason', async () => {
    const url = await closedPort();
    await expect(waitForTarget(url, 0)).rejects.toThrow(TargetUnreachable);
    await expect(waitForTarget(url, 0)).rejects.toThrow(/cannot reach .* \(ECONNREFUSED\)/);
  });

  it('waits through 503s until /readyz answers', async () => {
    const target = await readyz([503, 503, 200]);
    await waitForTarget(target.url, 10);
    expect(target.probes()).toBe(3);
  });

  it('takes any answer but 502-504 as ready (a deployment without /readyz answers 404)', async () => {
    const target = await readyz([404]);
    await waitForTarget(target.url, 10);
    expect(target.probes()).toBe(1);
  });

  it('gives up at the deadline with the last answer', async () => {
    const target = await readyz([503]);
    const started = Date.now();
    await expect(waitForTarget(target.url, 1)).rejects.toThrow(
      /not ready within 1 s \(last probe of \/readyz: HTTP 503\)/,
    );
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
