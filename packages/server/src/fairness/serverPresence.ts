import { randomUUID } from 'node:crypto';

export interface PresenceOptions {
  /** How often this server says it is here (default 2000 ms). */
  intervalMs?: number;
  /** A server not heard from for this long is counted out (default three intervals). */
  timeoutMs?: number;
  /** Milliseconds now (default Date.now). */
  now?: () => number;
  /**
   * When this server last heard its notification connection (a message or a heartbeat's answer);
   * default always (now). Peers are timed out against it, not against the clock.
   */
  heardAt?: () => number;
}

/**
 * How many servers share the database, learnt from each other over NOTIFY (no table, no write
 * per call): each says `here` every interval, `hello` when it starts listening (the others answer
 * `here` at once, so a new server knows them within a round trip), and `bye` when it stops. A
 * server not heard from within the timeout (killed) is counted out, the timeout running on what
 * this server heard: while its own notification connection is down, or its event loop is held up
 * with messages waiting unread, it keeps the count it had rather than count the others out.
 */
export class ServerPresence {
  readonly id = randomUUID();
  private readonly peers = new Map<string, number>();
  private readonly intervalMs: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly heardAt: () => number;
  private timer: NodeJS.Timeout | undefined;
  /** The last moment this server's notification connection was known live. */
  private liveAt: number;

  constructor(
    private readonly send: (payload: string) => Promise<void>,
    private readonly live: () => boolean,
    options: PresenceOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 2000;
    this.timeoutMs = options.timeoutMs ?? 3 * this.intervalMs;
    this.now = options.now ?? Date.now;
    this.heardAt = options.heardAt ?? (() => Number.POSITIVE_INFINITY);
    this.liveAt = this.now();
  }

  /** Says `here` every interval from now on. */
  start(): void {
    this.timer = setInterval(() => {
      if (this.live()) this.liveAt = this.now();
      void this.send(`here:${this.id}`);
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Listening (again): whoever is there answers. */
  listening(): void {
    this.liveAt = this.now();
    void this.send(`hello:${this.id}`);
  }

  /** A presence message, this server's own included (ignored). */
  receive(payload: string): void {
    const [kind, id] = payload.split(':');
    if (!id || id === this.id) return;
    if (kind === 'bye') {
      this.peers.delete(id);
      return;
    }
    this.peers.set(id, this.now());
    if (kind === 'hello') void this.send(`here:${this.id}`);
  }

  /** Servers live now, this one included. */
  servers(): number {
    const at = this.live() ? Math.min(this.now(), this.heardAt()) : this.liveAt;
    let count = 1;
    for (const [id, heardAt] of this.peers) {
      if (at - heardAt <= this.timeoutMs) count++;
      else if (this.live()) this.peers.delete(id);
    }
    return count;
  }

  /** Stops saying `here` and says `bye`, so the others count it out at once. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.send(`bye:${this.id}`);
  }
}
