import type { Command } from 'commander';
import { auditSentence, holderNames } from '@quotes/accounts';
import { createOperatorApi } from '@quotes/accounts';
import { dayBound, wholeNumber } from './cliOptions.js';
import type { CliContext } from './keyCommands.js';
import { listOutput } from './listOutput.js';

export function registerAuditCommands(program: Command, cli: CliContext): void {
  const audit = program
    .command('audit')
    .description("The operator's actions (keys, corpus, mail): who, when, on what, before and after, why; append-only");

  audit
    .command('list')
    .description('Actions oldest first, the last --limit of them')
    .option('--key <id>', 'only actions on this key (k_...)')
    .option(
      '--since <date>',
      'only actions from this day (YYYY-MM-DD, UTC) or instant on',
      dayBound('--since', 'start'),
    )
    .option('--limit <n>', 'at most this many, the latest (default 1000)', wholeNumber('--limit', 1, 100_000))
    .option('--json', 'print JSON: [{"id","at","actor","action","target","keyId","before","after","reason"}]')
    .action(async (options: { key?: string; since?: Date; limit?: number; json?: boolean }) => {
      const { entries, holders } = await cli.run(async (database) => {
        const trail = await createOperatorApi(database).auditTrail({
          keyId: options.key,
          since: options.since,
          limit: options.limit,
        });
        return { entries: trail, holders: await holderNames(database.db, trail) };
      });
      // Each sentence whole: a cut would leave half a name or reason.
      cli.out(
        listOutput(entries, options.json, {
          header: ['AT', 'WHAT WAS DONE'],
          cells: (entry) => [entry.at, auditSentence(entry, holders)],
          empty: 'No recorded action matches.',
        }),
      );
    });
}
