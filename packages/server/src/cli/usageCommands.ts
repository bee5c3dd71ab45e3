import type { Command } from 'commander';
import { createOperatorApi, type UsageView } from '../operator/operatorApi.js';
import { yearMonth } from './cliOptions.js';
import type { CliContext } from './keyCommands.js';
import { textTable } from './textTable.js';

const count = (value: number | null) => (value === null ? 'unlimited' : value.toLocaleString('en-US'));

function usageCells(usage: UsageView): string[] {
  const percent =
    usage.limit === null
      ? '-'
      : usage.limit === 0
        ? '100%'
        : `${Math.min(100, Math.floor((usage.calls * 100) / usage.limit))}%`;
  return [
    usage.keyId,
    usage.client,
    usage.plan,
    usage.calls.toLocaleString('en-US'),
    count(usage.limit),
    count(usage.remaining),
    percent,
  ];
}

const header = ['KEY', 'CLIENT', 'PLAN', 'CALLS', 'LIMIT', 'REMAINING', 'USED'];

export function registerUsageCommands(program: Command, cli: CliContext): void {
  const usage = program.command('usage').description('Calls counted per key and calendar month (UTC)');

  usage
    .command('show')
    .description("One key's calls in a month")
    .argument('<id>', 'key id (k_...)')
    .option('--month <YYYY-MM>', 'the month (default: this one)', yearMonth('--month'))
    .option('--json', 'print JSON')
    .action(async (id: string, options: { month?: string; json?: boolean }) => {
      const view = await cli.run((database) => createOperatorApi(database).usage(id, options.month));
      if (options.json) cli.out(JSON.stringify(view, null, 2));
      else cli.out(`${view.month}\n${textTable(header, [usageCells(view)])}`);
    });

  usage
    .command('report')
    .description('Every key with its calls in a month')
    .option('--month <YYYY-MM>', 'the month (default: this one)', yearMonth('--month'))
    .option('--json', 'print JSON')
    .action(async (options: { month?: string; json?: boolean }) => {
      const views = await cli.run((database) => createOperatorApi(database).usageReport(options.month));
      if (options.json) {
        cli.out(JSON.stringify(views, null, 2));
        return;
      }
      const month = views[0]?.month ?? options.month ?? new Date().toISOString().slice(0, 7);
      const total = views.reduce((sum, view) => sum + view.calls, 0);
      cli.out(
        `${month}: ${total.toLocaleString('en-US')} calls by ${views.length} keys\n${textTable(header, views.map(usageCells))}`,
      );
    });
}
