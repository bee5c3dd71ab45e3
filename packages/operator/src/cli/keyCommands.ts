import { rules, taxonomy } from '@quotes/contract';
import { type Command, Option } from 'commander';
import type { OpenedDatabase } from '@quotes/database';
import { visibleText } from '@quotes/text-rules';
import { type Config, publicBaseUrl } from '@quotes/service-base';
import {
  allowanceSentence,
  decisionCategoryIds,
  expiryText,
  plansWhere,
  rollGraceOf,
  rollGraces,
  rollOutcomeWords,
} from '@quotes/accounts/rules';
import {
  changePlanAndTell,
  renewAndTell,
  createOperatorApi,
  type IssuedKey,
  type Delivery,
  type KeyView,
  type Mailer,
  type OperatorApi,
  keyMessage,
  maxMonthlyCalls,
  OperatorError,
  requireDecisionCategory,
  requirePublicBaseUrl,
} from '@quotes/accounts';
import { deliveryLine, withMailer } from './cliMail.js';
import { isoInstant, wholeNumber } from './cliOptions.js';
import { listOutput } from './listOutput.js';
import { textTable } from './textTable.js';

/** The key's allowance in the plan's wording ("1,000 calls over its 30 days", "5,000 calls a month"). */
function allowanceOfView(view: { plan: string; monthlyCalls: number | null }): string {
  const plan = rules.planById.get(view.plan);
  // The key's own figure: null is no limit (an enterprise key without one of its own too).
  if (view.monthlyCalls === null) return 'unlimited calls a month';
  return plan
    ? allowanceSentence(plan, view.monthlyCalls)
    : `${view.monthlyCalls.toLocaleString('en-US')} calls a month`;
}

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
  /** Text written as it is, no line added (CSV). */
  write: (text: string) => void;
  /** A line to stderr (what a running command reports beside its output). */
  err: (text: string) => void;
}

const show = (value: string | number | null) => (value === null ? '-' : visibleText(String(value)));

function keyLines(view: KeyView): string[] {
  return [
    `id           ${view.id}`,
    `prefix       ${view.prefix}`,
    `client       ${show(view.client)}`,
    `email        ${show(view.email)}`,
    `plan         ${view.plan}`,
    `state        ${view.state}${view.revokedCategory ? ` (category ${view.revokedCategory}${view.revokedReason ? `: ${show(view.revokedReason)}` : ''})` : ''}`,
    `calls/month  ${view.monthlyCalls === null ? 'unlimited' : view.monthlyCalls.toLocaleString('en-US')}`,
    `max limit    ${view.maxLimit}`,
    `filters      ${view.filtersPerCall} per call${view.faithFilter ? ', faith filter allowed' : ', no faith filter'}`,
    `expires      ${view.expiresAt === null ? '-' : expiryText(view.expiresAt)}`,
    `revoked      ${show(view.revokedAt)}`,
    `created      ${view.createdAt}`,
    `origins      ${view.allowedOrigins.length === 0 ? '- (no browser calls)' : view.allowedOrigins.map((origin) => show(origin)).join(' ')}`,
  ];
}

const planOption = (flags: string, description: string) =>
  new Option(flags, description).choices([...taxonomy.plans]).makeOptionMandatory();
/** The --category flag's help: the list the holder's words come from. */
export const categoryHelp = `what the holder is told, one of ${decisionCategoryIds.join(', ')}`;

export const monthlyCallsOption = (): [string, string, (text: string) => number] => [
  '--monthly-calls <n>',
  `${perKeyPlans()} only, and needed there: calls per month (or --unlimited)`,
  wholeNumber('--monthly-calls', 0, maxMonthlyCalls),
];
export const maxLimitOption = (): [string, string, (text: string) => number] => [
  '--max-limit <n>',
  `${perKeyPlans()} only: largest page, 1-${rules.pageCeiling} (default: the plan's)`,
  wholeNumber('--max-limit', 1, rules.pageCeiling),
];

export const unlimitedOption = (): [string, string] => [
  '--unlimited',
  `${perKeyPlans()} only: no monthly allowance, said in words rather than by leaving --monthly-calls out`,
];

const collectOrigin = (value: string, previous: string[]) => [...previous, value];

type HolderMail = { readonly mailer: Mailer; readonly publicBaseUrl: string | undefined };

/**
 * An operator's change of a key, its holder told by the function the console calls too
 * (notices/), unless --no-send; and the line saying who was mailed.
 */
async function changeKeyAndTell(
  cli: CliContext,
  options: { readonly reason?: string; readonly send?: boolean },
  change: (operator: OperatorApi) => Promise<KeyView>,
  tell: (operator: OperatorApi, mail: HolderMail) => Promise<{ key: KeyView; delivery: Delivery | null }>,
): Promise<{ view: KeyView; mailed: string }> {
  const config = cli.config();
  const operatorOn = (database: Parameters<typeof createOperatorApi>[0]) =>
    createOperatorApi(database, { reason: options.reason });
  if (options.send === false)
    return {
      view: await cli.run((database) => change(operatorOn(database))),
      mailed: 'The holder was not mailed (--no-send).',
    };
  const { key, delivery } = await withMailer(config, (mailer) =>
    cli.run((database) => tell(operatorOn(database), { mailer, publicBaseUrl: config.PUBLIC_BASE_URL })),
  );
  return {
    view: key,
    mailed: delivery === null ? 'The key has no e-mail address: nobody was mailed.' : deliveryLine(delivery),
  };
}

export function registerKeyCommands(program: Command, cli: CliContext): void {
  const keys = program
    .command('keys')
    .description('Issue and manage API keys (the key itself is shown once, at creation)');

  /** Mails a new or rolled key to its owner; when that fails the key is still printed, never lost. */
  async function sendKey(issued: IssuedKey, view: KeyView, rolled: boolean): Promise<string> {
    const config = cli.config();
    try {
      return deliveryLine(
        await withMailer(config, (mailer) =>
          mailer.send(keyMessage(issued, view, requirePublicBaseUrl(config.PUBLIC_BASE_URL), rolled)),
        ),
      );
    } catch (error) {
      cli.out(`The key could not be mailed; here it is, shown this once: ${issued.key}`);
      throw error;
    }
  }

  function printIssued(issued: IssuedKey, verb: string, mailed: string | null): void {
    const config = cli.config();
    const header = `${verb} key ${issued.id} for ${JSON.stringify(issued.client)} on the ${issued.plan} plan${issued.expires_at ? `, valid until ${expiryText(issued.expires_at)}` : ''}.`;
    if (mailed !== null) {
      // Mailed: the secret goes to its owner, not into the operator's scrollback.
      cli.out([header, mailed].join('\n'));
      return;
    }
    cli.out(
      [
        header,
        '',
        `  ${issued.key}`,
        '',
        'This is the only time the key is shown: store it now (only its hash is kept).',
        'Try it:',
        `  curl -H "X-API-Key: ${issued.key}" ${publicBaseUrl(config)}/v1/quotes-random`,
      ].join('\n'),
    );
  }

  keys
    .command('create')
    .description('Create a key and print it once, or mail it to its owner (--send)')
    .requiredOption('--client <name>', 'the client the key is issued to (1-200 characters)')
    .addOption(planOption('--plan <plan>', 'the plan'))
    .option('--email <address>', "the owner's e-mail address (needed for --send and for trials to count per person)")
    .option('--expires-at <iso>', `expiry, in the future (${validityHelp()})`, isoInstant('--expires-at'))
    .option(...monthlyCallsOption())
    .option(...unlimitedOption())
    .option(...maxLimitOption())
    .option(
      '--allowed-origin <origin>',
      'a browser origin the key may be used from, scheme://host[:port] or scheme://host:* (repeatable; default: none)',
      collectOrigin,
      [] as string[],
    )
    .option('--send', 'mail the key, its plan, limits, expiry and the reference page to --email')
    .option('--allow-another-trial', 'issue a trial even though this person or client had one in the last 365 days')
    .option('--reason <text>', 'why, recorded in the audit (at most 2000 characters)')
    .option('--json', 'print {"id","key","client","plan","expires_at"} as JSON')
    .action(
      async (options: {
        reason?: string;
        client: string;
        plan: string;
        email?: string;
        expiresAt?: Date;
        monthlyCalls?: number;
        unlimited?: boolean;
        maxLimit?: number;
        allowedOrigin: string[];
        send?: boolean;
        allowAnotherTrial?: boolean;
        json?: boolean;
      }) => {
        if (options.send && !options.email)
          throw new OperatorError('--send needs --email: the address to mail the key to');
        // Refused before the key exists, as every --send that mails the holder links.
        if (options.send) requirePublicBaseUrl(cli.config().PUBLIC_BASE_URL);
        const { issued, view } = await cli.run(async (database) => {
          const operator = createOperatorApi(database, { reason: options.reason });
          const issued = await operator.createKey({
            client: options.client,
            plan: options.plan,
            email: options.email,
            expiresAt: options.expiresAt,
            monthlyCalls: options.monthlyCalls,
            unlimited: options.unlimited,
            maxLimit: options.maxLimit,
            allowAnotherTrial: options.allowAnotherTrial,
            allowedOrigins: options.allowedOrigin,
          });
          return { issued, view: options.send ? await operator.showKey(issued.id) : null };
        });
        const mailed = view ? await sendKey(issued, view, false) : null;
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
        printIssued(issued, 'Created', mailed);
      },
    );

  keys
    .command('set-origins')
    .description('Replace the browser origins a key may be used from (CORS); --none allows none')
    .argument('<id>', 'the key id (k_...)')
    .argument('[origins...]', 'scheme://host[:port], or scheme://host:* for any port of that host')
    .option('--none', 'allow no browser origin (server-side calls only)')
    .option('--reason <text>', 'why, recorded in the audit (at most 2000 characters)')
    .action(async (id: string, origins: string[], options: { none?: boolean; reason?: string }) => {
      if (options.none ? origins.length > 0 : origins.length === 0)
        throw new OperatorError('give the origins to allow, or --none to allow none (not both)');
      const view = await cli.run((database) =>
        createOperatorApi(database, { reason: options.reason }).setAllowedOrigins(id, origins),
      );
      cli.out(keyLines(view).join('\n'));
    });

  keys
    .command('list')
    .description("List keys with their owner and this month's calls (never the key itself)")
    .option('--email <address>', 'only keys of this person (case, +tag and Gmail dots ignored)')
    .option('--client <name>', 'only keys of this client (case and spacing ignored)')
    .addOption(new Option('--plan <plan>', 'only keys on this plan').choices([...taxonomy.plans]))
    .addOption(new Option('--status <status>', 'only keys in this state').choices(['active', 'expired', 'revoked']))
    .option('--json', 'print JSON')
    .action(
      async (options: {
        email?: string;
        client?: string;
        plan?: string;
        status?: 'active' | 'expired' | 'revoked';
        json?: boolean;
      }) => {
        const views = await cli.run((database) =>
          createOperatorApi(database).listKeys({
            email: options.email,
            client: options.client,
            plan: options.plan,
            state: options.status,
          }),
        );
        const filtered = options.email ?? options.client ?? options.plan ?? options.status;
        cli.out(
          listOutput(views, options.json, {
            header: ['ID', 'PREFIX', 'CLIENT', 'EMAIL', 'PLAN', 'STATE', 'CALLS THIS MONTH', 'EXPIRES', 'CREATED'],
            cells: (view) => [
              view.id,
              view.prefix,
              view.client,
              view.email ?? '-',
              view.plan,
              view.state,
              view.callsThisMonth.toLocaleString('en-US'),
              view.expiresAt ?? '-',
              view.createdAt,
            ],
            empty:
              filtered !== undefined
                ? 'No keys match.'
                : 'No keys yet. Create one with: npx quotes-admin keys create --client NAME --plan PLAN',
          }),
        );
      },
    );

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
          `usage        ${usage.calls.toLocaleString('en-US')} calls ${limit} from ${usage.periodStart} to ${usage.periodEnd}`,
        ].join('\n'),
      );
    });

  keys
    .command('revoke')
    .description('Revoke a key, or every key of a person or client; running servers refuse them within a second')
    .argument('[id]', 'key id (k_...)')
    .option('--email <address>', 'every active key of this person (case, +tag and Gmail dots ignored)')
    .option('--client <name>', 'every active key of this client (case and spacing ignored)')
    .option('--category <category>', categoryHelp)
    .option(
      '--reason <text>',
      "why, in the operator's words (kept with the key and in the audit, never shown to the holder; at most 500 characters)",
    )
    .action(
      async (
        id: string | undefined,
        options: { email?: string; client?: string; category?: string; reason?: string },
      ) => {
        // The holder reads the category, never the reason: it is chosen on every revocation.
        const category = requireDecisionCategory(options.category, '--category');
        const byOwner = options.email !== undefined || options.client !== undefined;
        if (id !== undefined && byOwner) throw new OperatorError('give a key id or --email/--client, not both');
        if (id === undefined && !byOwner)
          throw new OperatorError('name the keys to revoke: a key id, --email or --client');
        if (id !== undefined) {
          const view = await cli.run((database) => createOperatorApi(database).revokeKey(id, options.reason, category));
          cli.out(
            `Revoked ${view.id} (${show(view.client)}) at ${view.revokedAt}, category ${category}${view.revokedReason ? `: ${show(view.revokedReason)}` : ''}.`,
          );
          return;
        }
        const views = await cli.run((database) =>
          createOperatorApi(database).revokeKeysOf(
            { email: options.email, client: options.client },
            options.reason,
            category,
          ),
        );
        if (views.length === 0) {
          cli.out('No active key matches: nothing revoked.');
          return;
        }
        cli.out(
          `Revoked ${views.length} key${views.length === 1 ? '' : 's'} in one transaction:\n${textTable(
            ['ID', 'CLIENT', 'EMAIL', 'PLAN', 'REVOKED'],
            views.map((view) => [view.id, view.client, view.email ?? '-', view.plan, view.revokedAt ?? '-']),
          )}`,
        );
      },
    );

  keys
    .command('renew')
    .description(
      `Set a new expiry on a key (reactivates an expired key; never beyond its plan's validity from issue: ${validityHelp()})`,
    )
    .argument('<id>', 'key id (k_...)')
    .requiredOption('--until <iso>', 'new expiry, in the future', isoInstant('--until'))
    .option('--reason <text>', 'why, recorded in the audit (at most 2000 characters)')
    .option('--send', "mail the key's holder the new expiry (the default; needs PUBLIC_BASE_URL for the mail's link)")
    .option('--no-send', 'mail nobody')
    .action(async (id: string, options: { until: Date; reason?: string; send?: boolean }) => {
      const { view, mailed } = await changeKeyAndTell(
        cli,
        options,
        (operator) => operator.renewKey(id, options.until),
        (operator, mail) => renewAndTell(operator, id, options.until, mail),
      );
      cli.out(
        `Renewed ${view.id} (${show(view.client)}) until ${expiryText(view.expiresAt ?? '')}; it is ${view.state}.\n${mailed}`,
      );
    });

  keys
    .command('change-plan')
    .description("Move a key to another plan, keeping its secret and this month's usage")
    .argument('<id>', 'key id (k_...)')
    .addOption(planOption('--plan <plan>', 'the new plan'))
    .option(...monthlyCallsOption())
    .option(...unlimitedOption())
    .option(...maxLimitOption())
    .option('--allow-another-trial', 'move to trial even though this person or client had one in the last 365 days')
    .option('--reason <text>', 'why, recorded in the audit (at most 2000 characters)')
    .option('--send', "mail the key's holder the new plan (the default; needs PUBLIC_BASE_URL for the mail's link)")
    .option('--no-send', 'mail nobody')
    .action(
      async (
        id: string,
        options: {
          plan: string;
          monthlyCalls?: number;
          unlimited?: boolean;
          maxLimit?: number;
          allowAnotherTrial?: boolean;
          reason?: string;
          send?: boolean;
        },
      ) => {
        const change = {
          plan: options.plan,
          monthlyCalls: options.monthlyCalls,
          unlimited: options.unlimited,
          maxLimit: options.maxLimit,
          allowAnotherTrial: options.allowAnotherTrial,
        };
        const { view, mailed } = await changeKeyAndTell(
          cli,
          options,
          (operator) => operator.changePlan(id, change),
          (operator, mail) => changePlanAndTell(operator, id, change, mail),
        );
        cli.out(
          `${view.id} (${show(view.client)}) is now on ${view.plan}: ${allowanceOfView(view)}, pages up to ${view.maxLimit}${view.expiresAt ? `, valid until ${expiryText(view.expiresAt)}` : ''}.\n${mailed}`,
        );
      },
    );

  keys
    .command('roll')
    .description('Give a key a new secret (same id, plan and usage); the old secret is refused after the grace')
    .argument('<id>', 'key id (k_...)')
    .addOption(
      new Option('--grace <when>', "when the old secret stops working (as the holder's page offers)")
        .choices(rollGraces.map((grace) => grace.id))
        .default('at-once'),
    )
    .option('--send', "mail the new secret to the key's e-mail address")
    .option('--reason <text>', 'why, recorded in the audit (at most 2000 characters)')
    .option('--json', 'print {"id","key","client","plan","expires_at"} as JSON')
    .action(async (id: string, options: { grace: string; send?: boolean; json?: boolean; reason?: string }) => {
      if (options.send) requirePublicBaseUrl(cli.config().PUBLIC_BASE_URL);
      const grace = rollGraceOf(options.grace)!;
      const { issued, view } = await cli.run(async (database) => {
        const operator = createOperatorApi(database, { reason: options.reason });
        const owner = await operator.showKey(id);
        if (options.send && !owner.email)
          throw new OperatorError(`key ${id} has no e-mail address; --send needs one`, 'conflict');
        return { issued: await operator.rollKey(id, { graceMs: grace.ms }), view: owner };
      });
      const mailed = options.send ? await sendKey(issued, view, true) : null;
      if (options.json) {
        const { prefix: _prefix, ...shown } = issued;
        cli.out(JSON.stringify(shown));
        return;
      }
      printIssued(issued, 'Rolled', mailed);
      cli.out(rollOutcomeWords(issued));
    });
}
