import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import proxyAddr from 'proxy-addr';

/**
 * An address as the database and the bounds take it, from what a socket or a proxy wrote: an
 * IPv4 dotted quad or an IPv6 address, with a port (`198.51.100.11:5555`, `[2001:db8::1]:443`)
 * or a zone (`fe80::1%eth0`) left off, an IPv4-mapped IPv6 address as IPv4; undefined for anything else (`not-an-ip`, `unknown`).
 */
export function addressOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  const withoutPort =
    /^\[([^\]]+)\](?::\d{1,5})?$/.exec(trimmed)?.[1] ??
    /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(trimmed)?.[1] ??
    trimmed;
  const host = withoutPort.split('%')[0]!;
  // Four decimal parts only: ipaddr.js would also read `127.1` and `0x7f.1`, which no proxy writes.
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return ipaddr.IPv4.parse(host).toString();
  if (!ipaddr.IPv6.isValid(host)) return undefined;
  const address = ipaddr.IPv6.parse(host);
  return address.isIPv4MappedAddress() ? address.toIPv4Address().toString() : address.toString();
}

/**
 * The client's address: the socket's, or, when the socket is a proxy TRUST_PROXY names, the
 * nearest address in X-Forwarded-For that is not one of those proxies (proxy-addr's walk, the one
 * Express uses). Without TRUST_PROXY the header is never believed: anyone can write it. An entry
 * that is not an address ends the walk: the last address read is the client as far as anyone can
 * tell (the proxy itself when it passed on garbage), so a malformed header never fails a request.
 * Empty only when the socket has no address (it closed).
 */
export function clientAddressReader(
  trustedProxies: readonly string[] | undefined,
): (request: IncomingMessage) => string {
  const trust = proxyAddr.compile(trustedProxies ? [...trustedProxies] : []);
  // A connection's own address never changes: read once per socket, not on every call it carries.
  const socketAddresses = new WeakMap<object, string>();
  return (request) => {
    const { socket } = request;
    let client = socketAddresses.get(socket);
    if (client === undefined) {
      client = addressOf(socket.remoteAddress) ?? '';
      if (client !== '') socketAddresses.set(socket, client);
    }
    if (client === '' || !trust(client, 0)) return client;
    // A trusted proxy's socket: X-Forwarded-For from its right end (the nearest hop).
    const hops = proxyAddr.all(request);
    for (let hop = 1; hop < hops.length; hop++) {
      if (client === '' || !trust(client, hop - 1)) break;
      const next = addressOf(hops[hop]);
      if (next === undefined) break;
      client = next;
    }
    return client;
  };
}
