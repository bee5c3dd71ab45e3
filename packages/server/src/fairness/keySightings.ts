import { createHash } from 'node:crypto';
import { burstShare } from './burstShare.js';

export interface SightingsOptions {
  /** How often this server says which keys it saw (default 2000 ms, the presence interval). */
  intervalMs?: number;
  /** How long after its first call a key is shared as if every live server saw it (default 250 ms). */
  settleMs?: number;
  /** How long a first sighting waits to be sent with others (default 50 ms). */
  batchMs?: number;
  /** Milliseconds now (default Date.now). */
  now?: () => number;
}

/** NOTIFY allows 8000 bytes a payload; a longer list goes in several. */
const maxPayloadBytes = 7900;

interface OwnSighting {
  readonly hash: string;
  readonly firstAt: number;
  /** Seen since the last report (a key not seen for a whole interval is reported gone). */
  seen: boolean;
}

/**
 * Which servers a key's burst-limited calls reach, learnt over NOTIFY with no table and no write
 * per call, so each server enforces `rate / servers seeing the key` (burstShare). Keys travel as
 * short hashes of their ids (never the secret). Each server sends `seen:<server>:<hashes>` for a
 * key's first call (batched for `batchMs`) and every interval for the keys it saw in it,
 * `gone:<server>:<hashes>` for the keys it saw in the interval before but not in this one, and
 * answers a new server's `hello` with what it sees. A peer's sighting lapses at its `gone`, its
 * `bye`, or three intervals after it was last reported (a killed server), but not while this
 * server's own notification connection is down: it keeps the view it had rather than widen shares.
 */
export class KeySightings {
  private readonly own = new Map<string, OwnSighting>();
  /** Key hash -> server id -> when that server last reported it. */
  private readonly peers = new Map<string, Map<string, number>>();
  private readonly intervalMs: number;
  private readonly settleMs: number;
  private readonly batchMs: number;
  private readonly now: () => number;
  private readonly firstSightings: string[] = [];
  private batchTimer: NodeJS.Timeout | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly serverId: string,
    private readonly send: (payload: string) => Promise<void>,
    private readonly live: () => boolean,
    private readonly liveServers: () => number,
    options: SightingsOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 2000;
    this.settleMs = options.settleMs ?? 250;
    this.batchMs = options.batchMs ?? 50;
    this.now = options.now ?? Date.now;
  }

  /** Notes a call of `keyId` and returns this server's share of `rate` for it. */
  offer(keyId: string, rate: number): number {
    const now = this.now();
    let sighting = this.own.get(keyId);
    if (!sighting) {
      sighting = { hash: keyHash(keyId), firstAt: now, seen: true };
      this.own.set(keyId, sighting);
      this.firstSightings.push(sighting.hash);
      this.batchTimer ??= setTimeout(() => this.sendFirstSightings(), this.batchMs);
      this.batchTimer.unref?.();
    }
    sighting.seen = true;
    return burstShare(rate, this.peersSeeing(sighting.hash, now), now - sighting.firstAt < this.settleMs, this.liveServers());
  }

  /** Reports every interval from now on. */
  start(): void {
    this.timer = setInterval(() => this.report(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.batchTimer) clearTimeout(this.batchTimer);
    this.timer = this.batchTimer = undefined;
  }

  /** Sends the keys seen this interval, and those gone since the last; forgets lapsed peers' sightings. */
  report(): void {
    const seen: string[] = [];
    const gone: string[] = [];
    for (const [keyId, sighting] of this.own) {
      if (sighting.seen) seen.push(sighting.hash);
      else {
        gone.push(sighting.hash);
        this.own.delete(keyId);
      }
      sighting.seen = false;
    }
    this.sendList('seen', seen);
    this.sendList('gone', gone);
    if (!this.live()) return;
    const now = this.now();
    for (const [hash, servers] of this.peers) {
      for (const [server, at] of servers) if (now - at > 3 * this.intervalMs) servers.delete(server);
      if (servers.size === 0) this.peers.delete(hash);
    }
  }

  /** A message on the presence channel, this server's own included (ignored). */
  receive(payload: string): void {
    const [kind, server, list] = payload.split(':');
    if (!server || server === this.serverId) return;
    if (kind === 'hello') {
      this.sendList(
        'seen',
        [...this.own.values()].map((sighting) => sighting.hash),
      );
      return;
    }
    if (kind === 'bye') {
      for (const [hash, servers] of this.peers) if (servers.delete(server) && servers.size === 0) this.peers.delete(hash);
      return;
    }
    if ((kind !== 'seen' && kind !== 'gone') || !list) return;
    const now = this.now();
    for (const hash of list.split(',')) {
      let servers = this.peers.get(hash);
      if (kind === 'gone') {
        if (servers?.delete(server) && servers.size === 0) this.peers.delete(hash);
        continue;
      }
      if (!servers) {
        servers = new Map();
        this.peers.set(hash, servers);
      }
      servers.set(server, now);
    }
  }

  /** Keys this server tracks now (memory follows the keys in use). */
  get trackedKeys(): number {
    return this.own.size;
  }

  private peersSeeing(hash: string, now: number): number {
    const servers = this.peers.get(hash);
    if (!servers) return 0;
    if (!this.live()) return servers.size;
    let count = 0;
    for (const at of servers.values()) if (now - at <= 3 * this.intervalMs) count++;
    return count;
  }

  private sendFirstSightings(): void {
    this.batchTimer = undefined;
    this.sendList('seen', this.firstSightings.splice(0));
  }

  private sendList(kind: 'seen' | 'gone', hashes: readonly string[]): void {
    const head = `${kind}:${this.serverId}:`;
    let list = '';
    for (const hash of hashes) {
      if (head.length + list.length + hash.length + 1 > maxPayloadBytes) {
        void this.send(head + list);
        list = '';
      }
      list = list === '' ? hash : `${list},${hash}`;
    }
    if (list !== '') void this.send(head + list);
  }
}

/** 66 bits of the id's SHA-256: a collision among active keys only makes two keys share more servers. */
export function keyHash(keyId: string): string {
  return createHash('sha256').update(keyId).digest('base64url').slice(0, 11);
}
