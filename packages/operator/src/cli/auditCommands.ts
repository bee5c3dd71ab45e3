import type { Command } from 'commander';
import { changeText } from '@quotes/accounts';
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
      const entries = await cli.run((database) =>
        createOperatorApi(database).auditTrail({ keyId: options.key, since: options.since, limit: options.limit }),
      );
      cli.out(
        listOutput(entries, options.json, {
          header: ['AT', 'ACTOR', 'ACTION', 'TARGET', 'CHANGE', 'REASON'],
          cells: (entry) => [
            entry.at,
            entry.actor,
            entry.action,
            entry.target,
            changeText(entry.before, entry.after).slice(0, 200),
            entry.reason ?? '-',
          ],
          empty: 'No recorded action matches.',
        }),
      );
    });
}
