/**
 * This server's share of a key's burst rate (calls a second), given the calls a second each peer
 * that sees the key was last offered (`Infinity`: seen, not yet measured). Max-min fair: a peer
 * offered less than an equal split keeps what it is offered, and the rest is split equally
 * between this server and the others, so the shares of servers that agree on each other's demand
 * sum to at most the rate, and a server is never cut below `rate / (servers seeing the key)` by
 * peers that want more. While this server has just begun to see the key (`settling`), peers may not
 * have said so yet, so it takes no more than `rate / liveServers`: a key that starts on several
 * servers at once gets its rate in all.
 */
export function burstShare(
  rate: number,
  peerDemands: readonly number[],
  settling: boolean,
  liveServers: number,
): number {
  let remaining = rate;
  let sharing = peerDemands.length + 1;
  for (const demand of [...peerDemands].sort((a, b) => a - b)) {
    if (demand * sharing >= remaining) break;
    remaining -= Math.max(0, demand);
    sharing--;
  }
  const level = remaining / sharing;
  return settling ? Math.min(level, rate / Math.max(1, liveServers)) : level;
}
