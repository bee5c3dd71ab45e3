import type { Kysely } from 'kysely';
import { type ApiKeyRecord, findKeysByHashes } from '../data/apiKeys.js';
import type { Database } from '@quotes/database';
import { hashApiKey } from './apiKeySecret.js';

interface LookupWaiter {
  resolve(record: ApiKeyRecord | undefined): void;
  reject(error: unknown): void;
}

/** Keys asked for in one statement at most. */
const maxBatch = 500;

/**
 * Key look-ups by hash, cached in-process. Correct only while change notifications arrive: when
 * they do not (`trusted()` false) every look-up goes to the database, and an entry is trusted for
 * `ttlMs` at most, which bounds revocation even when the notifications stop without anyone noticing. A look-up that raced with
 * an invalidation is not stored, so a revocation can never be overwritten by an older read.
 * Unknown keys are not cached: a flood of guesses must not fill memory. Look-ups that miss the
 * cache are batched: at most `lookupsAtOnce` statements run at a time, each asking for every key
 * that arrived meanwhile, so a flood of unknown keys costs statements by the batch, not by the
 * key, and no key, valid or not, is ever refused for it.
 */
export class KeyCache {
  private readonly byHash = new Map<string, { record: ApiKeyRecord; storedAt: number }>();
  private readonly hashById = new Map<string, string>();
  private generation = 0;
  private waiting = new Map<string, { hash: Buffer; waiters: LookupWaiter[] }>();
  private lookupsRunning = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly trusted: () => boolean,
    private readonly ttlMs = 15_000,
    private readonly maxEntries = 10_000,
    private readonly lookupsAtOnce = 1,
  ) {}

  async lookup(key: string): Promise<ApiKeyRecord | undefined> {
    const keyHash = hashApiKey(key);
    const hashHex = keyHash.toString('hex');
    const trusted = this.trusted();
    if (trusted) {
      const cached = this.byHash.get(hashHex);
      if (cached && performance.now() - cached.storedAt < this.ttlMs) return cached.record;
    }
    const generation = this.generation;
    const record = await this.batchedLookup(hashHex, keyHash);
    if (record && trusted && this.trusted() && generation === this.generation) this.store(hashHex, record);
    return record;
  }

  private batchedLookup(hashHex: string, hash: Buffer): Promise<ApiKeyRecord | undefined> {
    return new Promise((resolve, reject) => {
      const entry = this.waiting.get(hashHex);
      if (entry) entry.waiters.push({ resolve, reject });
      else this.waiting.set(hashHex, { hash, waiters: [{ resolve, reject }] });
      if (this.lookupsRunning < this.lookupsAtOnce) void this.runLookups();
    });
  }

  private async runLookups(): Promise<void> {
    this.lookupsRunning++;
    try {
      while (this.waiting.size > 0) {
        // The rest go to a new Map rather than the batch's being deleted from the long-lived one:
        // see "Memory on the request path" in the server README.
        const arrived = [...this.waiting];
        const batch = arrived.slice(0, maxBatch);
        this.waiting = new Map(arrived.slice(maxBatch));
        try {
          const found = await findKeysByHashes(
            this.db,
            batch.map(([, entry]) => entry.hash),
          );
          for (const [hashHex, entry] of batch) for (const waiter of entry.waiters) waiter.resolve(found.get(hashHex));
        } catch (error) {
          // The database just failed: those still waiting would only wait for the same failure.
          const failed = [...batch, ...this.waiting];
          this.waiting = new Map();
          for (const [, entry] of failed) for (const waiter of entry.waiters) waiter.reject(error);
        }
      }
    } finally {
      this.lookupsRunning--;
    }
  }

  private store(hashHex: string, record: ApiKeyRecord): void {
    if (this.byHash.size >= this.maxEntries) {
      const oldest = this.byHash.keys().next();
      if (!oldest.done) this.forgetHash(oldest.value);
    }
    this.byHash.delete(hashHex);
    this.byHash.set(hashHex, { record, storedAt: performance.now() });
    this.hashById.set(record.id, hashHex);
  }

  private forgetHash(hashHex: string): void {
    const entry = this.byHash.get(hashHex);
    this.byHash.delete(hashHex);
    if (entry) this.hashById.delete(entry.record.id);
  }

  invalidate(keyId: string): void {
    this.generation++;
    const hashHex = this.hashById.get(keyId);
    if (hashHex) this.forgetHash(hashHex);
  }

  clear(): void {
    this.generation++;
    this.byHash.clear();
    this.hashById.clear();
  }

  get size(): number {
    return this.byHash.size;
  }
}
