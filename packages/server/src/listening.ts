import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts `server` listening on `host`:`port` (0: a free port); resolves with its address, rejects with the listen error (a port taken, say). */
export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}
