import { rules, taxonomy } from '@quotes/contract';
import { type Command, Option } from 'commander';
import type { Config } from '../config.js';
import type { OpenedDatabase } from '@quotes/database';
import { plansWhere } from '../domain/plans.js';
import { createOperatorApi, type KeyView } from '../operator/operatorApi.js';
import { isoInstant, wholeNumber } from './cliOptions.js';
import { textTable } from './textTable.js';

const perKeyPlans = () => plansWhere((plan) => plan.perKeyLimits).replace(/^the /, '');

/** "trial keys: at most 30 days, the default": the plans whose keys expire by themselves. */
function validityHelp(): string {
  const limited = rules.plans.filter((plan) => plan.validityDays !== null);
  if (limited.length === 0) return 'default: never';
  return `${limited.map((plan) => `${plan.id} keys: at most ${plan.validityDays} days, the default`).join('; ')}`;
}

export interface CliContext {
  config: () => Config;
  open: () => Promise<OpenedDatabase>;
  run: <T>(work: (database: OpenedDatabase) => Promise<T>) => Promise<T>;
  out: (text: string) => void;
}

const show = (value: string | number | null) => (value === null ? '-' : String(value));

function keyLines(view: KeyView): string[] {
  return [
    `id           ${view.id}`,
    `prefix       ${view.prefix}`,
    `client       ${view.client}`,
    `email        ${show(view.email)}`,
    `plan         ${view.plan}`,
    `state        ${view.state}${view.revokedReason ? ` (${view.revokedReason})` : ''}`,
    `calls/month  ${view.monthlyCalls === null ? 'unlimited' : view.monthlyCalls.toLocaleString('en-US')}`,
    `max limit    ${view.maxLimit}`,
    `filters      ${view.filtersPerCall} per call${view.faithFilter ? ', faith filter allowed' : ', no faith filter'}`,
    `expires      ${show(view.expiresAt)}`,
    `revoked      ${show(view.revokedAt)}`,
    `created      ${view.createdAt}`,
  ];
}

export function registerKeyCommands(program: Command, cli: CliContext): void {
  const keys = program
    .command('keys')
    .description('Issue and manage API keys (the key itself is shown once, at creation)');

  keys
    .command('create')
    .description('Create a key and print it once')
    .requiredOption('--client <name>', 'the client the key is issued to')
    .addOption(new Option('--plan <plan>', 'the plan').choices([...taxonomy.plans]).makeOptionMandatory())
    .option('--email <address>', 'contact e-mail')
    .option('--expires-at <iso>', `expiry (${validityHelp()})`, isoInstant('--expires-at'))
    .option(
      '--monthly-calls <n>',
      `${perKeyPlans()} only: calls per month (default: unlimited)`,
      wholeNumber('--monthly-calls', 0, 2_147_483_647),
    )
    .option(
      '--max-limit <n>',
      `${perKeyPlans()} only: largest page, 1-${rules.pageCeiling} (default: the plan's)`,
      wholeNumber('--max-limit', 1, rules.pageCeiling),
    )
    .option('--json', 'print {"id","key","client","plan","expires_at"} as JSON')
    .action(
      async (options: {
        client: string;
        plan: string;
        email?: string;
        expiresAt?: Date;
        monthlyCalls?: number;
        maxLimit?: number;
        json?: boolean;
      }) => {
        const issued = await cli.run((database) =>
          createOperatorApi(database).createKey({
            client: options.client,
            plan: options.plan,
            email: options.email,
            expiresAt: options.expiresAt,
            monthlyCalls: options.monthlyCalls,
            maxLimit: options.maxLimit,
          }),
        );
        if (options.json) {
          cli.out(
            JSON.stringify({
              id: issued.id,
              key: issued.key,
              client: issued.client,
              plan: issued.plan,
              expires_at: issued.expires_at,
            }),
          );
          return;
        }
        const config = cli.config();
        cli.out(
          [
            `Created key ${issued.id} for "${issued.client}" on the ${issued.plan} plan${issued.expires_at ? `, valid until ${issued.expires_at}` : ''}.`,
            '',
            `  ${issued.key}`,
            '',
            'This is the only time the key is shown: store it now (only its hash is kept).',
            'Try it:',
            `  curl -H "X-API-Key: ${issued.key}" http://${config.HOST}:${config.PORT}/v1/quotes-random`,
          ].join('\n'),
        );
      },
    );

  keys
    .command('list')
    .description('List every key (never the key itself)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const views = await cli.run((database) => createOperatorApi(database).listKeys());
      if (options.json) {
        cli.out(JSON.stringify(views, null, 2));
        return;
      }
      if (views.length === 0) {
        cli.out('No keys yet. Create one with: npm run admin -- keys create --client NAME --plan PLAN');
        return;
      }
      cli.out(
        textTable(
          ['ID', 'PREFIX', 'CLIENT', 'PLAN', 'STATE', 'EXPIRES', 'CREATED'],
          views.map((view) => [
            view.id,
            view.prefix,
            view.client,
            view.plan,
            view.state,
            show(view.expiresAt),
            view.createdAt,
          ]),
        ),
      );
    });

  keys
    .command('show')
    .description("Show one key and this month's usage")
    .argument('<id>', 'key id (k_...)')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const view = await cli.run((database) => createOperatorApi(database).showKey(id));
      if (options.json) {
        cli.out(JSON.stringify(view, null, 2));
        return;
      }
      const usage = view.usage;
      const limit = usage.limit === null ? 'unlimited' : `of ${usage.limit.toLocaleString('en-US')}`;
      cli.out(
        [
          ...keyLines(view),
          `usage        ${usage.calls.toLocaleString('en-US')} calls ${limit} in ${usage.month} (UTC)`,
        ].join('\n'),
      );
    });

  keys
    .command('revoke')
    .description('Revoke a key; running servers refuse it within a second')
    .argument('<id>', 'key id (k_...)')
    .option('--reason <text>', 'why (kept with the key)')
    .action(async (id: string, options: { reason?: string }) => {
      const view = await cli.run((database) => createOperatorApi(database).revokeKey(id, options.reason));
      cli.out(
        `Revoked ${view.id} (${view.client}) at ${view.revokedAt}${view.revokedReason ? `: ${view.revokedReason}` : ''}.`,
      );
    });

  keys
    .command('renew')
    .description('Set a new expiry on a key (reactivates an expired key)')
    .argument('<id>', 'key id (k_...)')
    .requiredOption('--until <iso>', 'new expiry, in the future', isoInstant('--until'))
    .action(async (id: string, options: { until: Date }) => {
      const view = await cli.run((database) => createOperatorApi(database).renewKey(id, options.until));
      cli.out(`Renewed ${view.id} (${view.client}) until ${view.expiresAt}; it is ${view.state}.`);
    });
}
