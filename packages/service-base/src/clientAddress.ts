import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';

/**
 * The client's address: the socket's, or, when the socket is a proxy TRUST_PROXY names, the
 * nearest address in X-Forwarded-For that is not one of those proxies (proxy-addr, the library
 * Express itself uses). Without TRUST_PROXY the header is never believed: anyone can write it.
 */
export function clientAddressReader(
  trustedProxies: readonly string[] | undefined,
): (request: IncomingMessage) => string {
  const trust = proxyAddr.compile(trustedProxies ? [...trustedProxies] : []);
  return (request) => proxyAddr(request, trust);
}
