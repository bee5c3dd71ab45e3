import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago (for throwaway clusters and test servers). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolvePort(address.port);
        else reject(new Error('no port assigned'));
      });
    });
  });
}
