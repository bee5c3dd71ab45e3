import { type Command, Option } from 'commander';
import { counted } from '@quotes/corpus/terminal-text';
import { csvTable } from '@quotes/text-rules';
import { signalThresholdsOf } from '@quotes/accounts/rules';
import {
  createOperatorApi,
  OperatorError,
  requirePublicBaseUrl,
  type UsageView,
  usageAlertMessage,
  usageSignalsMessage,
} from '@quotes/accounts';
import { deliveryLine, withMailer } from './cliMail.js';
import { dayBound, yearMonth } from './cliOptions.js';
import type { CliContext } from './keyCommands.js';
import { listOutput } from './listOutput.js';
import { textTable } from './textTable.js';

const count = (value: number | null) => (value === null ? 'unlimited' : value.toLocaleString('en-US'));

/** Whole percent used, rounded down and capped at 100; null for a key without a limit. */
function percentUsed(usage: UsageView): number | null {
  if (usage.limit === null) return null;
  if (usage.limit === 0) return 100;
  return Math.min(100, Math.floor((usage.calls * 100) / usage.limit));
}

/** A key as its owner knows it (the prefix of the secret they hold) beside the operator's id. */
const keyCells = (usage: UsageView) => [usage.keyId, usage.prefix];

function usageCells(usage: UsageView): string[] {
  const percent = percentUsed(usage);
  return [
    ...keyCells(usage),
    usage.client,
    usage.plan,
    usage.state,
    usage.calls.toLocaleString('en-US'),
    count(usage.limit),
    count(usage.remaining),
    percent === null ? '-' : `${percent}%`,
  ];
}

const header = ['KEY', 'PREFIX', 'CLIENT', 'PLAN', 'STATE', 'CALLS', 'LIMIT', 'REMAINING', 'USED'];

/** The options every usage command shares; `extra` adds a command's own between them. */
function usageCommand(parent: Command, name: string, description: string, extra: (command: Command) => Command) {
  return extra(
    parent
      .command(name)
      .description(description)
      .option('--month <YYYY-MM>', 'the month (default: this one)', yearMonth('--month')),
  ).option('--json', 'print JSON');
}

export function registerUsageCommands(program: Command, cli: CliContext): void {
  const usage = program.command('usage').description('Calls counted per key and calendar month (UTC)');

  usageCommand(usage, 'show', "One key's calls in a month", (command) =>
    command.argument('<id>', 'key id (k_...)'),
  ).action(async (id: string, options: { month?: string; json?: boolean }) => {
    const view = await cli.run((database) => createOperatorApi(database).usage(id, options.month));
    if (options.json) cli.out(JSON.stringify(view, null, 2));
    else cli.out(`${view.month}\n${textTable(header, [usageCells(view)])}`);
  });

  usageCommand(usage, 'report', 'Every key with its state and its calls in a month', (command) =>
    command.option('--csv', 'print CSV for billing: a header row, then one row per key (RFC 4180 quoting)'),
  ).action(async (options: { month?: string; json?: boolean; csv?: boolean }) => {
    const views = await cli.run(async (database) => {
      const operator = createOperatorApi(database);
      const [report, keys] = await Promise.all([operator.usageReport(options.month), operator.listKeys()]);
      const emails = new Map(keys.map((key) => [key.id, key.email]));
      return report.map((view) => ({ ...view, email: emails.get(view.keyId) ?? null }));
    });
    if (options.json) {
      cli.out(JSON.stringify(views, null, 2));
      return;
    }
    if (options.csv) {
      // Written by the one CSV writer: a client named "=HYPERLINK(...)" stays text in a spreadsheet.
      cli.write(
        csvTable(
          ['month', 'key_id', 'key_prefix', 'client', 'email', 'plan', 'state', 'calls', 'allowance', 'percent_used'],
          views.map((view) => [
            view.month,
            ...keyCells(view),
            view.client,
            view.email,
            view.plan,
            view.state,
            view.calls,
            view.limit,
            percentUsed(view),
          ]),
        ),
      );
      return;
    }
    const month = views[0]?.month ?? options.month ?? new Date().toISOString().slice(0, 7);
    const total = views.reduce((sum, view) => sum + view.calls, 0);
    cli.out(
      `${month}: ${counted(total, 'call')} by ${counted(views.length, 'key')}\n${textTable(header, views.map(usageCells))}`,
    );
  });

  usage
    .command('history')
    .description(
      "One key's calls per hour or day (UTC) and outcome: served (what the monthly counter counts) or the refusal's problem type",
    )
    .argument('<id>', 'key id (k_...), or unknown: the calls whose key was missing or not recognised')
    .option(
      '--from <date>',
      'first day (YYYY-MM-DD) or instant (default: the 1st of this month)',
      dayBound('--from', 'start'),
    )
    .option(
      '--to <date>',
      'last day, included (YYYY-MM-DD), or an instant, excluded (default: now)',
      dayBound('--to', 'end'),
    )
    .addOption(
      new Option('--by <period>', 'one row per hour or per day and outcome').choices(['hour', 'day']).default('day'),
    )
    .option('--json', 'print JSON: [{"start","outcome","calls"}]')
    .option('--csv', 'print CSV: a header row (start,outcome,calls), then one row per period and outcome')
    .action(
      async (id: string, options: { from?: Date; to?: Date; by: 'hour' | 'day'; json?: boolean; csv?: boolean }) => {
        if (options.json && options.csv) throw new OperatorError('give --json or --csv, not both');
        const rows = await cli.run((database) =>
          createOperatorApi(database).usageHistory(id, { from: options.from, to: options.to, by: options.by }),
        );
        if (options.csv)
          cli.write(
            csvTable(
              ['start', 'outcome', 'calls'],
              rows.map((row) => [row.start, row.outcome, row.calls]),
            ),
          );
        else
          cli.out(
            listOutput(rows, options.json, {
              header: ['START', 'OUTCOME', 'CALLS'],
              cells: (row) => [row.start, row.outcome, row.calls.toLocaleString('en-US')],
              empty: `No calls of ${id} in that range.`,
            }),
          );
      },
    );

  usageCommand(
    usage,
    'signals',
    'Signs of broken terms in a month: a sweep of the corpus, a shared key, rotated trials; each with its evidence',
    (command) => command,
  ).action(async (options: { month?: string; json?: boolean }) => {
    const thresholds = signalThresholdsOf(cli.config());
    const signals = await cli.run((database) => createOperatorApi(database).usageSignals(options.month, thresholds));
    cli.out(
      listOutput(signals, options.json, {
        header: ['SUBJECT', 'SIGNAL', 'KEYS AND REQUESTS', 'EVIDENCE'],
        cells: (signal) => [
          signal.subject,
          signal.signal,
          [...signal.involves.keys, ...signal.involves.requests].join(' '),
          signal.evidence,
        ],
        empty: 'No sign of broken terms.',
      }),
    );
  });

  usageCommand(
    usage,
    'alerts',
    'Active keys at 80% or 100% of their allowance period; the servers mail each holder once per threshold (HOLDER_MAIL_SWEEP_MS), --send mails those still due now',
    (command) =>
      command.option(
        '--send',
        'mail the holders of alerts not yet sent (each key, period and threshold once; not to holders who turned them off)',
      ),
  ).action(async (options: { month?: string; send?: boolean; json?: boolean }) => {
    const config = cli.config();
    if (options.send) {
      const base = requirePublicBaseUrl(config.PUBLIC_BASE_URL);
      await withMailer(config, async (mailer) => {
        const sent = await cli.run((database) =>
          createOperatorApi(database).sendUsageAlerts(options.month, async (alert) => {
            cli.out(deliveryLine(await mailer.send(usageAlertMessage(alert, base))));
          }),
        );
        cli.out(`${counted(sent.length, 'alert')} sent.`);
        // The signs of broken terms go to the operator, never to the customer, each once.
        const operatorEmail = config.OPERATOR_EMAIL;
        if (operatorEmail === undefined) {
          const signals = await cli.run((database) =>
            createOperatorApi(database).usageSignals(options.month, signalThresholdsOf(config)),
          );
          if (signals.length > 0)
            cli.out(`${counted(signals.length, 'sign')} of broken terms not mailed: OPERATOR_EMAIL is not set.`);
          return;
        }
        const month = options.month ?? new Date().toISOString().slice(0, 7);
        const mailed = await cli.run((database) =>
          createOperatorApi(database).sendUsageSignals(options.month, signalThresholdsOf(config), async (signals) => {
            cli.out(deliveryLine(await mailer.send(usageSignalsMessage(signals, month, operatorEmail))));
          }),
        );
        cli.out(`${counted(mailed.length, 'new sign')} of broken terms mailed.`);
      });
    }
    const alerts = await cli.run((database) => createOperatorApi(database).usageAlerts(options.month));
    cli.out(
      listOutput(alerts, options.json, {
        header: ['KEY', 'PREFIX', 'CLIENT', 'EMAIL', 'PLAN', 'CALLS', 'ALLOWANCE', 'USED', 'THRESHOLD', 'MAILED'],
        cells: (alert) => [
          ...keyCells(alert),
          alert.client,
          alert.email ?? '- (no address)',
          alert.plan,
          alert.calls.toLocaleString('en-US'),
          count(alert.limit),
          `${alert.percent}%`,
          `${alert.threshold}%`,
          alert.sent ? 'yes' : alert.mails ? 'no' : 'off (holder)',
        ],
        empty: 'No key is at 80% of its allowance.',
      }),
    );
  });
}
