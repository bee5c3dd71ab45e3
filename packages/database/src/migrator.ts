// biome-ignore-all lint/suspicious/noExplicitAny: the Migrator works on any schema, as kysely documents.
import type { Kysely } from 'kysely';
import { type MigrationResultSet, Migrator } from 'kysely/migration';
import type { PlanRules } from '@quotes/contract';
import { lockMigrations } from './migrationLock.js';
import { migrations } from './migrations/index.js';
import { seedPlans } from './planSeed.js';
import type { Database } from './schema.js';

function migratorFor(db: Kysely<any>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

/**
 * Applies every pending migration in order (throws the first failure), then writes the
 * contract's plans into the plans table (`plans` replaces them, for tests of a changed contract):
 * all in one transaction, under the migrations' lock (migrationLock.ts), so servers starting
 * together migrate one at a time, through a transaction pooler too.
 */
export async function migrateToLatest(
  db: Kysely<any>,
  options: { plans?: readonly PlanRules[] } = {},
): Promise<string[]> {
  // Typed as the schema once migrated, for the plans' seed.
  return (db as Kysely<Database>).transaction().execute(async (trx) => {
    // Before kysely creates its own tables: two processes creating them at once would collide.
    await lockMigrations(trx);
    const { error, results }: MigrationResultSet = await migratorFor(trx).migrateToLatest();
    if (error) {
      const failed = results?.find((result) => result.status === 'Error')?.migrationName;
      throw new Error(
        `migration ${failed ?? '(unknown)'} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    await seedPlans(trx, options.plans);
    return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
  });
}

export interface MigrationStatus {
  name: string;
  executedAt: Date | null;
}

export async function migrationStatus(db: Kysely<any>): Promise<MigrationStatus[]> {
  const all = await migratorFor(db).getMigrations();
  return all.map((migration) => ({ name: migration.name, executedAt: migration.executedAt ?? null }));
}
