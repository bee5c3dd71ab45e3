import pg from 'pg';
import { settledWithin } from '@quotes/service-base';
import {
  corpusChangedChannel,
  corpusListenerName,
  corpusNextChannel,
  corpusPreparedChannel,
  keyChangedChannel,
  serverPresenceChannel,
} from '@quotes/database';

export interface NotificationHandlers {
  onKeyChanged(keyId: string): void;
  /** A load swapped in corpus `version`; `loader` is the backend that sent it (see onCorpusNext). */
  onCorpusChanged(change: CorpusAnnouncement | undefined): void;
  /** A load committed corpus `version` as quotes_next and waits for this server to index it (see prepared()). */
  onCorpusNext(next: CorpusAnnouncement): void;
  /**
   * Called each time listening (re)starts: whatever changed while no one was listening was
   * missed, so every cache must be dropped.
   */
  onListening(): void;
  onLost(error: unknown): void;
  /** A server's presence message (see ServerPresence), this one's own included. */
  onPresence?(payload: string): void;
}

/** A corpus version announced by a loader, identified by its backend's process id. */
export interface CorpusAnnouncement {
  readonly version: number;
  readonly loader: number;
}

function announcement(message: pg.Notification): CorpusAnnouncement | undefined {
  const version = Number(message.payload);
  return Number.isSafeInteger(version) && version > 0 ? { version, loader: message.processId } : undefined;
}

export interface NotificationOptions {
  /**
   * How often the connection is checked with a query, which must answer within the same time:
   * a connection that went silent (a stopped backend, a NAT that dropped it) is noticed within
   * twice this, then replaced.
   */
  heartbeatMs?: number;
}

/**
 * One dedicated connection LISTENing for key and corpus changes. When it drops (the database
 * restarted, the network failed) `live` turns false at once, so the caches stop trusting memory,
 * and it reconnects by itself with a growing pause.
 */
export class DatabaseNotifications {
  private client: pg.Client | undefined;
  private closed = false;
  private listening = false;
  private retryDelay = 100;
  private retryTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private readonly heartbeatMs: number;
  /** When the connection last proved alive (a notification or a heartbeat's answer), in ms since the epoch; 0 never. */
  lastHeardAt = 0;
  /** When the last notification arrived, in ms since the epoch; 0 never. */
  lastNotificationAt = 0;

  constructor(
    private readonly url: string,
    private readonly handlers: NotificationHandlers,
    options: NotificationOptions = {},
  ) {
    this.heartbeatMs = options.heartbeatMs ?? 5000;
  }

  get live(): boolean {
    return this.listening;
  }

  /** Resolves once listening, or after the first failed attempt (retries continue in the background). */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: 3000,
      keepAlive: true,
      // How a loader finds the servers to wait for.
      application_name: corpusListenerName,
    });
    this.client = client;
    // A statement stuck on a connection lost silently must not hold up the next one's.
    this.queue = Promise.resolve();
    let lost = false;
    const onLost = (error: unknown) => {
      if (lost) return;
      lost = true;
      this.listening = false;
      if (this.client === client) this.client = undefined;
      client.end().catch(() => undefined);
      if (this.closed) return;
      this.handlers.onLost(error);
      this.scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', () => onLost(new Error('notification connection ended')));
    client.on('notification', (message) => {
      this.lastNotificationAt = this.lastHeardAt = Date.now();
      if (message.channel === keyChangedChannel && message.payload) this.handlers.onKeyChanged(message.payload);
      else if (message.channel === corpusChangedChannel) this.handlers.onCorpusChanged(announcement(message));
      else if (message.channel === corpusNextChannel) {
        const next = announcement(message);
        if (next) this.handlers.onCorpusNext(next);
      } else if (message.channel === serverPresenceChannel && message.payload)
        this.handlers.onPresence?.(message.payload);
    });
    try {
      await client.connect();
      await this.serially(() =>
        client.query(
          `LISTEN ${keyChangedChannel}; LISTEN ${corpusChangedChannel}; LISTEN ${corpusNextChannel}; LISTEN ${serverPresenceChannel}`,
        ),
      );
      if (lost || this.closed) return;
      this.listening = true;
      this.lastHeardAt = Date.now();
      this.retryDelay = 100;
      this.handlers.onListening();
      this.scheduleHeartbeat(client, onLost);
    } catch (error) {
      onLost(error);
    }
  }

  /**
   * Tells the loader waiting on `version` that this server is done with it (index built, or
   * failed: either way there is nothing more to wait for). Sent from this connection, the one
   * the loader found listening; lost with it, which the loader notices as well.
   */
  prepared(version: number): void {
    void this.notify(corpusPreparedChannel, String(version));
  }

  /** Sends a presence message (see ServerPresence) from this connection; lost with it. */
  announce(payload: string): Promise<void> {
    return this.notify(serverPresenceChannel, payload);
  }

  /** The current connection's statements, one after another: pg deprecates a query on a client already running one. */
  private queue: Promise<unknown> = Promise.resolve();

  private serially<T>(statement: () => Promise<T>): Promise<T> {
    const next = this.queue.then(statement, statement);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private notify(channel: string, payload: string): Promise<void> {
    return this.serially(async () => {
      await this.client?.query('SELECT pg_notify($1, $2)', [channel, payload]).catch(() => undefined);
    });
  }

  private scheduleHeartbeat(client: pg.Client, onLost: (error: unknown) => void): void {
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = setTimeout(async () => {
      this.heartbeatTimer = undefined;
      if (this.closed || this.client !== client) return;
      let timer: NodeJS.Timeout | undefined;
      const silent = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`notification connection silent for ${this.heartbeatMs} ms`)),
          this.heartbeatMs,
        );
      });
      try {
        // Queued behind the notifications, and bounded as a whole: a connection that stops
        // answering is found silent whether the heartbeat or a notification is stuck.
        await Promise.race([this.serially(() => client.query('SELECT 1')), silent]);
        this.lastHeardAt = Date.now();
        if (this.client === client) this.scheduleHeartbeat(client, onLost);
      } catch (error) {
        onLost(error);
      } finally {
        clearTimeout(timer);
      }
    }, this.heartbeatMs);
    this.heartbeatTimer.unref();
  }

  private scheduleReconnect(): void {
    if (this.retryTimer || this.closed) return;
    const delay = this.retryDelay;
    this.retryDelay = Math.min(this.retryDelay * 2, 2000);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, delay);
    this.retryTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    // A polite end waits for the server's goodbye, which a hung database never sends.
    await settledWithin(client.end(), 1000);
  }
}
