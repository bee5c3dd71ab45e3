import getPort from 'get-port';

/** A TCP port on 127.0.0.1 that was free a moment ago (for throwaway clusters and test servers). */
export function freePort(): Promise<number> {
  return getPort({ host: '127.0.0.1' });
}
