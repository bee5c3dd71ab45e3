import type { Kysely } from 'kysely';
import { type ApiKeyRecord, findKeyByHash } from '../data/apiKeys.js';
import type { Database } from '@quotes/database';
import { hashApiKey } from './apiKeySecret.js';

/**
 * Key look-ups by hash, cached in-process. Correct only while change notifications arrive: when
 * they do not (`trusted()` false) every look-up goes to the database, and an entry is trusted for
 * `ttlMs` at most, which bounds revocation even when the notifications stop without anyone noticing. A look-up that raced with
 * an invalidation is not stored, so a revocation can never be overwritten by an older read.
 * Unknown keys are not cached: a flood of guesses must not fill memory.
 */
export class KeyCache {
  private readonly byHash = new Map<string, { record: ApiKeyRecord; storedAt: number }>();
  private readonly hashById = new Map<string, string>();
  private generation = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly trusted: () => boolean,
    private readonly ttlMs = 15_000,
    private readonly maxEntries = 10_000,
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
    const record = await findKeyByHash(this.db, keyHash);
    if (record && trusted && this.trusted() && generation === this.generation) this.store(hashHex, record);
    return record;
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
