import ipaddr from 'ipaddr.js';

/**
 * The network a client address belongs to, for one trial per network: an IPv4 /24 or an IPv6
 * /56 (what one home or office line is usually given). An IPv4-mapped IPv6 address counts as
 * its IPv4 address.
 */
export const ipv4NetworkBits = 24;
export const ipv6NetworkBits = 56;

export interface ClientNetwork {
  /** The address in its normal text form. */
  readonly address: string;
  /** `a.b.c.0/24` or `x:x:x:xx00::/56`. */
  readonly network: string;
}

export function clientNetworkOf(text: string): ClientNetwork {
  let address = ipaddr.parse(text);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress())
    address = (address as ipaddr.IPv6).toIPv4Address();
  const bits = address.kind() === 'ipv4' ? ipv4NetworkBits : ipv6NetworkBits;
  const network = ipaddr.IPv4.isValid(address.toString())
    ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${bits}`)
    : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${bits}`);
  return { address: address.toString(), network: `${network.toString()}/${bits}` };
}
