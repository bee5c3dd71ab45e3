import { createHash } from 'node:crypto';
import { burstShare } from './burstShare.js';

export interface KeyDemandOptions {
  /** How often this server reports the keys it was offered (default 2000 ms, the presence interval). */
  intervalMs?: number;
  /** How long after its first call a key is shared as if every live server saw it (default 250 ms). */
  settleMs?: number;
  /** How long a first sighting or a rise waits to be sent with others (default 50 ms). */
  batchMs?: number;
  /** Milliseconds now (default Date.now). */
  now?: () => number;
  /**
   * When this server last heard its notification connection (a message or a heartbeat's answer);
   * default always (now). Peer reports lapse against it, not against the clock.
   */
  heardAt?: () => number;
}

/** NOTIFY allows 8000 bytes a payload; a longer list goes in several. */
const maxPayloadBytes = 7900;
/** The shortest time a rate is measured over, so one call is not read as a flood. */
const minMeasureMs = 200;
/** A rate this much above the one reported (and 1/s more) is reported at once, not at the interval. */
const riseFactor = 1.25;

interface OwnDemand {
  readonly hash: string;
  readonly firstAt: number;
  /** Calls offered since `countFrom` (served or refused). */
  calls: number;
  countFrom: number;
  /** The calls a second the peers were last told; Infinity while only the first sighting was sent. */
  reported: number;
}

interface PeerDemand {
  perSecond: number;
  at: number;
}

/**
 * Where a key's burst-limited calls arrive, learnt over NOTIFY with no table and no write per call,
 * so each server enforces its max-min fair share of the key's rate (burstShare). Keys travel as
 * short hashes of their ids (never the secret). A server sends `seen:<server>:<hash>,...` at a
 * key's first call (its rate unknown; batched for `batchMs`), `seen:<server>:<hash>=<calls/s>,...`
 * every interval for the keys it was offered in it and at once when a key's rate rises past
 * `riseFactor` of the one it reported, `gone:<server>:<hash>,...` for keys not offered in a whole
 * interval, and answers a new server's `hello` with what it sees. A peer's report lapses at its
 * `gone`, its `bye`, or three intervals after it was sent (a killed server), but not while this
 * server's own notification connection is down: it keeps the view it had rather than widen shares.
 */
export class KeyDemand {
  private readonly own = new Map<string, OwnDemand>();
  /** Key hash -> server id -> its last report. */
  private readonly peers = new Map<string, Map<string, PeerDemand>>();
  private readonly intervalMs: number;
  private readonly settleMs: number;
  private readonly batchMs: number;
  private readonly now: () => number;
  private readonly heardAt: () => number;
  /** Reports waiting for the batch: hash, and calls a second (undefined: a first sighting). */
  private readonly batch = new Map<string, number | undefined>();
  private batchTimer: NodeJS.Timeout | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly serverId: string,
    private readonly send: (payload: string) => Promise<void>,
    private readonly live: () => boolean,
    private readonly liveServers: () => number,
    options: KeyDemandOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 2000;
    this.settleMs = options.settleMs ?? 250;
    this.batchMs = options.batchMs ?? 50;
    this.now = options.now ?? Date.now;
    this.heardAt = options.heardAt ?? (() => Number.POSITIVE_INFINITY);
  }

  /** Notes a call of `keyId` and returns this server's share of `rate` for it. */
  offer(keyId: string, rate: number): number {
    const now = this.now();
    let demand = this.own.get(keyId);
    if (!demand) {
      demand = { hash: keyHash(keyId), firstAt: now, calls: 0, countFrom: now, reported: Number.POSITIVE_INFINITY };
      this.own.set(keyId, demand);
      this.queue(demand.hash, undefined);
    }
    demand.calls++;
    const measuredMs = now - demand.countFrom;
    if (measuredMs >= minMeasureMs) {
      const perSecond = (demand.calls * 1000) / measuredMs;
      if (perSecond > demand.reported * riseFactor + 1) {
        demand.reported = perSecond;
        this.queue(demand.hash, perSecond);
      }
    }
    return burstShare(
      rate,
      this.peerDemands(demand.hash, now),
      now - demand.firstAt < this.settleMs,
      this.liveServers(),
    );
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

  /** Reports each key's rate this interval, and the keys gone since the last; forgets lapsed peers' reports. */
  report(): void {
    const now = this.now();
    const seen: string[] = [];
    const gone: string[] = [];
    for (const [keyId, demand] of this.own) {
      if (demand.calls === 0) {
        gone.push(demand.hash);
        this.own.delete(keyId);
        continue;
      }
      demand.reported = (demand.calls * 1000) / Math.max(minMeasureMs, now - demand.countFrom);
      seen.push(entry(demand.hash, demand.reported));
      demand.calls = 0;
      demand.countFrom = now;
    }
    this.sendList('seen', seen);
    this.sendList('gone', gone);
    for (const [hash, servers] of this.peers) {
      for (const [server, report] of servers) if (this.lapsed(report, now)) servers.delete(server);
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
        [...this.own.values()].map((demand) => entry(demand.hash, demand.reported)),
      );
      return;
    }
    if (kind === 'bye') {
      for (const [hash, servers] of this.peers)
        if (servers.delete(server) && servers.size === 0) this.peers.delete(hash);
      return;
    }
    if ((kind !== 'seen' && kind !== 'gone') || !list) return;
    const now = this.now();
    for (const item of list.split(',')) {
      const [hash = '', rate] = item.split('=');
      let servers = this.peers.get(hash);
      if (kind === 'gone') {
        if (servers?.delete(server) && servers.size === 0) this.peers.delete(hash);
        continue;
      }
      if (!servers) {
        servers = new Map();
        this.peers.set(hash, servers);
      }
      const perSecond = rate === undefined ? Number.NaN : Number(rate);
      servers.set(server, { perSecond: perSecond >= 0 ? perSecond : Number.POSITIVE_INFINITY, at: now });
    }
  }

  /** Keys this server tracks now (memory follows the keys in use). */
  get trackedKeys(): number {
    return this.own.size;
  }

  private peerDemands(hash: string, now: number): number[] {
    const servers = this.peers.get(hash);
    if (!servers) return [];
    const demands: number[] = [];
    for (const report of servers.values()) if (!this.lapsed(report, now)) demands.push(report.perSecond);
    return demands;
  }

  /** Whether this server heard its connection three intervals past the report (see the class). */
  private lapsed(report: PeerDemand, now: number): boolean {
    return this.live() && Math.min(now, this.heardAt()) - report.at > 3 * this.intervalMs;
  }

  private queue(hash: string, perSecond: number | undefined): void {
    this.batch.set(hash, perSecond);
    if (this.batchTimer) return;
    this.batchTimer = setTimeout(() => {
      this.batchTimer = undefined;
      this.sendList(
        'seen',
        [...this.batch].map(([queued, rate]) => (rate === undefined ? queued : entry(queued, rate))),
      );
      this.batch.clear();
    }, this.batchMs);
    this.batchTimer.unref?.();
  }

  private sendList(kind: 'seen' | 'gone', items: readonly string[]): void {
    const head = `${kind}:${this.serverId}:`;
    let list = '';
    for (const item of items) {
      if (head.length + list.length + item.length + 1 > maxPayloadBytes) {
        void this.send(head + list);
        list = '';
      }
      list = list === '' ? item : `${list},${item}`;
    }
    if (list !== '') void this.send(head + list);
  }
}

/** A key's report: its hash, and its calls a second rounded up to a tenth (none while unmeasured). */
function entry(hash: string, perSecond: number): string {
  return Number.isFinite(perSecond) ? `${hash}=${Math.ceil(perSecond * 10) / 10}` : hash;
}

/** 66 bits of the id's SHA-256: a collision among active keys only makes two keys share more. */
export function keyHash(keyId: string): string {
  return createHash('sha256').update(keyId).digest('base64url').slice(0, 11);
}
