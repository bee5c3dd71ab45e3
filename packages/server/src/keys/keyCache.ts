import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { type ApiKeyRecord, findKeysByHashes } from '@quotes/accounts';
import { type Lane, StatementRounds } from '@quotes/database';
import type { Database } from '@quotes/database';
import { hashApiKey } from '@quotes/accounts';

/** Keys asked for in one statement at most. */
const maxBatch = 500;

/**
 * Key look-ups by hash, cached in-process. Correct only while change notifications arrive: when
 * they do not (`trusted()` false) every look-up goes to the database, and an entry is trusted for
 * `ttlMs` at most, which bounds revocation even when the notifications stop without anyone
 * noticing. A look-up that raced with an invalidation is not stored, so a revocation can never be
 * overwritten by an older read. Unknown keys are not cached: a flood of guesses must not fill
 * memory. Look-ups that miss the cache are batched: at most `lookupsAtOnce` statements run at a
 * time, each asking for every key that arrived meanwhile, so a flood of unknown keys costs
 * statements by the batch, not by the key, and no key, valid or not, is ever refused for it.
 */
export class KeyCache {
  private readonly byHash: LRUCache<string, ApiKeyRecord>;
  /** Every hash cached for a key: its secret, and during a roll's grace its previous one. */
  private readonly hashesById = new Map<string, Set<string>>();
  private generation = 0;
  private readonly lookups: StatementRounds<Buffer, ApiKeyRecord | undefined>;

  constructor(
    db: Kysely<Database>,
    private readonly trusted: () => boolean,
    ttlMs = 15_000,
    maxEntries = 10_000,
    lookupsAtOnce = 1,
  ) {
    this.byHash = new LRUCache({
      max: maxEntries,
      ttl: ttlMs,
      // An entry that leaves (evicted, expired, invalidated) takes its id's pointer with it.
      dispose: (record, hashHex) => {
        const hashes = this.hashesById.get(record.id);
        hashes?.delete(hashHex);
        if (hashes?.size === 0) this.hashesById.delete(record.id);
      },
    });
    this.lookups = new StatementRounds({
      roundsAtOnce: lookupsAtOnce,
      maxLanes: maxBatch,
      // The database just failed: those still waiting would only wait for the same failure.
      failWaitingWithRound: true,
      run: async (round: readonly Lane<Buffer>[]) => {
        const found = await findKeysByHashes(
          db,
          round.map(({ item }) => item),
        );
        return ({ item }) => found.get(item.toString('hex'));
      },
    });
  }

  async lookup(key: string): Promise<ApiKeyRecord | undefined> {
    const keyHash = hashApiKey(key);
    const hashHex = keyHash.toString('hex');
    const trusted = this.trusted();
    if (trusted) {
      const cached = this.byHash.get(hashHex);
      if (cached) return cached;
    }
    const generation = this.generation;
    const record = await this.lookups.ask(hashHex, keyHash);
    if (record && trusted && this.trusted() && generation === this.generation) this.keep(hashHex, record);
    return record;
  }

  /**
   * Keeps `record` as `key`'s without asking the database: only for a cache of the start's warm-up
   * calls' own (warmUpCalls.ts), whose key is in no table. The server's own cache is filled by look-ups.
   */
  remember(key: string, record: ApiKeyRecord): void {
    this.keep(hashApiKey(key).toString('hex'), record);
  }

  private keep(hashHex: string, record: ApiKeyRecord): void {
    // The key's other secrets cached in a state this read no longer shows (read before a roll:
    // another prefix or grace) are read again at their next call, not trusted until a notification
    // of the roll arrives.
    for (const other of [...(this.hashesById.get(record.id) ?? [])]) {
      const cached = this.byHash.peek(other);
      if (other !== hashHex && cached && !sameSecrets(cached, record)) this.byHash.delete(other);
    }
    this.byHash.set(hashHex, record);
    const hashes = this.hashesById.get(record.id) ?? new Set<string>();
    hashes.add(hashHex);
    this.hashesById.set(record.id, hashes);
  }

  invalidate(keyId: string): void {
    this.generation++;
    for (const hashHex of [...(this.hashesById.get(keyId) ?? [])]) this.byHash.delete(hashHex);
  }

  clear(): void {
    this.generation++;
    this.byHash.clear();
    this.hashesById.clear();
  }

  get size(): number {
    return this.byHash.size;
  }
}

/** Whether two reads of one key show the same secrets: the same prefix and the same grace. */
function sameSecrets(a: ApiKeyRecord, b: ApiKeyRecord): boolean {
  return a.keyPrefix === b.keyPrefix && a.previousValidUntil?.getTime() === b.previousValidUntil?.getTime();
}
