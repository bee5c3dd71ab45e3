/**
 * This server's share of a key's burst rate (calls a second): the rate divided among the servers
 * the key's calls reach, this one and `peersSeeing` others. While this server has just begun to
 * see the key (`settling`), the others may not have said so yet, so it assumes all `liveServers`
 * do: a key that starts on several servers at once never gets more than its rate in all.
 */
export function burstShare(rate: number, peersSeeing: number, settling: boolean, liveServers: number): number {
  const sharing = 1 + Math.max(0, peersSeeing);
  return rate / (settling ? Math.max(sharing, liveServers, 1) : sharing);
}
