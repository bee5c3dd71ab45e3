import { once } from 'node:events';
import http, { type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  /** e.g. `http://127.0.0.1:40123`. */
  url: string;
  close(): Promise<void>;
}

/** Serves `handler` on a free port of 127.0.0.1, over real HTTP. */
export async function listen(handler: RequestListener): Promise<Listening> {
  const server = http.createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
