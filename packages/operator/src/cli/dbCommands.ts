import type { Command } from 'commander';
import { migrateToLatest, migrationStatus } from '@quotes/database';
import { withDatabase } from './cliDatabase.js';
import type { CliContext } from './keyCommands.js';
import { textTable } from './textTable.js';

export interface DbCliContext extends CliContext {
  /** The database without applying migrations (status must report them pending). */
  openUnmigrated: CliContext['open'];
}

export function registerDbCommands(program: Command, cli: DbCliContext): void {
  const db = program.command('db').description('Schema migrations');

  db.command('migrate')
    .description('Apply pending migrations (the server also applies them at start)')
    .action(async () => {
      const applied = await withDatabase(cli.openUnmigrated, (database) => migrateToLatest(database.db));
      cli.out(applied.length === 0 ? 'Already up to date.' : `Applied ${applied.length}: ${applied.join(', ')}`);
    });

  db.command('status')
    .description('List migrations and when each was applied')
    .action(async () => {
      const status = await withDatabase(cli.openUnmigrated, (database) => migrationStatus(database.db));
      const pending = status.filter((migration) => migration.executedAt === null).length;
      cli.out(
        `${textTable(
          ['MIGRATION', 'APPLIED'],
          status.map((m) => [m.name, m.executedAt ? m.executedAt.toISOString() : 'pending']),
        )}\n` + `${pending === 0 ? 'Up to date.' : `${pending} pending: run db migrate (or start the server).`}`,
      );
    });
}
