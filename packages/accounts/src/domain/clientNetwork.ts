import ipaddr from 'ipaddr.js';

/**
 * The network a client address belongs to, for one trial per network and the hourly bound per
 * network: an IPv4 /24 or an IPv6 /56 (what one home or office line is usually given). Its site
 * is the larger block one customer can hold at once, an IPv4 /24 or an IPv6 /48 (what a tunnel
 * broker hands out for free): when the service is busy, each site gets one request an hour.
 * An IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export const ipv4NetworkBits = 24;
export const ipv6NetworkBits = 56;
export const ipv6SiteBits = 48;

export interface ClientNetwork {
  /** The address in its normal text form. */
  readonly address: string;
  /** `a.b.c.0/24` or `x:x:x:xx00::/56`. */
  readonly network: string;
  /** `a.b.c.0/24` or `x:x:x::/48`. */
  readonly site: string;
}

export function clientNetworkOf(text: string): ClientNetwork {
  let address = ipaddr.parse(text);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress())
    address = (address as ipaddr.IPv6).toIPv4Address();
  const shown = address.toString();
  if (address.kind() === 'ipv4') {
    const network = `${ipaddr.IPv4.networkAddressFromCIDR(`${shown}/${ipv4NetworkBits}`).toString()}/${ipv4NetworkBits}`;
    return { address: shown, network, site: network };
  }
  const block = (bits: number) => `${ipaddr.IPv6.networkAddressFromCIDR(`${shown}/${bits}`).toString()}/${bits}`;
  return { address: shown, network: block(ipv6NetworkBits), site: block(ipv6SiteBits) };
}
