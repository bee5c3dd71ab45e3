import { type Command, Option } from 'commander';
import { taxonomy } from '@quotes/contract';
import type { KeyRequestStatus } from '@quotes/database';
import { keyRequestBounds } from '@quotes/service-base';
import { systemClock } from '@quotes/accounts/rules';
import { createKeyRequestService, type KeyRequestService, type KeyRequestView } from '@quotes/accounts';
import { silentLogger } from '@quotes/service-base';
import { createOperatorApi, requireDecisionCategory } from '@quotes/accounts';
import { deliveryLine, withMailer } from './cliMail.js';
import { type CliContext, categoryHelp, maxLimitOption, monthlyCallsOption, unlimitedOption } from './keyCommands.js';
import { listOutput } from './listOutput.js';

const statuses = ['pending', 'approved', 'rejected', 'expired', 'unconfirmed'] as const;

/** What a request asks for: a new key, or a holder's plan change or renewal of a key they hold. */
const kindText = (view: KeyRequestView) => (view.kind === 'key' ? 'key' : `${view.kind} of ${view.forKeyId}`);

function requestLines(view: KeyRequestView): string[] {
  return [
    `id           ${view.id}`,
    `kind         ${kindText(view)}`,
    `status       ${view.status}`,
    `email        ${view.email}`,
    `name         ${view.name}`,
    `application  ${view.application}`,
    `client       ${view.client}`,
    `plan         ${view.plan}`,
    `use          ${view.use.replaceAll('\n', ' ')}`,
    `reasons      ${view.reasons.length === 0 ? '-' : view.reasons.join('; ')}`,
    `address      ${view.clientAddress} (network ${view.clientNetwork})`,
    `created      ${view.createdAt}`,
    `confirmed    ${view.confirmedAt ?? '-'}`,
    `decided      ${view.decidedAt ?? '-'}`,
    `key          ${view.keyId ?? '-'}`,
    ...(view.rejectionReason ? [`rejected     ${view.rejectionReason}`] : []),
  ];
}

/** `requests ...`: the queue of key requests from the public form. */
export function registerRequestCommands(program: Command, cli: CliContext): void {
  const requests = program
    .command('requests')
    .description('The queue of key requests from the public form (/keys/request)');

  /** Runs work with the request service on the CLI's database and mailer. */
  const withService = <T>(work: (service: KeyRequestService) => Promise<T>): Promise<T> => {
    const config = cli.config();
    return withMailer(config, (mailer) =>
      cli.run((database) =>
        work(
          createKeyRequestService(
            database,
            createOperatorApi(database),
            {
              mailer,
              // No guess at the address: --send refuses without it (requirePublicBaseUrl).
              publicBaseUrl: config.PUBLIC_BASE_URL,
              bounds: keyRequestBounds(config),
              operatorEmail: config.OPERATOR_EMAIL,
            },
            systemClock,
            silentLogger,
          ),
        ),
      ),
    );
  };

  requests
    .command('list')
    .description('List key requests, oldest first, with why each waits')
    .addOption(new Option('--status <status>', 'only requests in this state').choices([...statuses]))
    .option('--json', 'print JSON')
    .action(async (options: { status?: KeyRequestStatus; json?: boolean }) => {
      const views = await withService((service) => service.list(options.status));
      cli.out(
        listOutput(views, options.json, {
          header: ['ID', 'EMAIL', 'CLIENT', 'APPLICATION', 'PLAN', 'STATUS', 'REASONS', 'CREATED', 'DECIDED', 'KIND'],
          cells: (view) => [
            view.id,
            view.email,
            view.name,
            view.application,
            view.plan,
            view.status,
            view.reasons.join('; ') || '-',
            view.createdAt,
            view.decidedAt ?? '-',
            kindText(view),
          ],
          empty: 'No key requests match.',
        }),
      );
    });

  requests
    .command('show')
    .description('Show one key request')
    .argument('<id>', 'request id (r_...)')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const view = await withService((service) => service.show(id));
      cli.out(options.json ? JSON.stringify(view, null, 2) : requestLines(view).join('\n'));
    });

  requests
    .command('approve')
    .description(
      "Grant a pending request: the key is made as by keys create and mailed to the address the request proved; a holder's plan change or renewal changes their key and mails them the decision",
    )
    .argument('<id>', 'request id (r_...)')
    .addOption(new Option('--plan <plan>', 'another plan than the one asked for').choices([...taxonomy.plans]))
    .option(...monthlyCallsOption())
    .option(...unlimitedOption())
    .option(...maxLimitOption())
    .option('--send', 'mail the decision (the default)')
    .option('--no-send', 'mail nobody: the key is printed once for you to pass on')
    .action(
      async (
        id: string,
        options: { plan?: string; send?: boolean; monthlyCalls?: number; unlimited?: boolean; maxLimit?: number },
      ) => {
        const { request, issued, changed, delivery } = await withService((service) =>
          service.approve(id, {
            plan: options.plan,
            monthlyCalls: options.monthlyCalls,
            unlimited: options.unlimited,
            maxLimit: options.maxLimit,
            send: options.send !== false,
          }),
        );
        if (!issued) {
          // A holder's plan change or renewal: their key changed, no new secret to show.
          const header = `Approved ${request.id} (${request.kind}): key ${request.forKeyId} is on the ${changed?.plan} plan${changed?.expiresAt ? `, valid until ${changed.expiresAt}` : ', with no expiry'}.`;
          cli.out(
            delivery
              ? [header, deliveryLine(delivery)].join('\n')
              : `${header}\nThe holder was not mailed (--no-send).`,
          );
          return;
        }
        const header = `Approved ${request.id}: key ${issued.id} for ${JSON.stringify(issued.client)} on the ${issued.plan} plan${issued.expires_at ? `, valid until ${issued.expires_at}` : ''}.`;
        cli.out(
          delivery
            ? [header, deliveryLine(delivery)].join('\n')
            : [
                header,
                '',
                `  ${issued.key}`,
                '',
                'Shown this once (only its hash is kept): pass it on (--no-send mailed nobody).',
              ].join('\n'),
        );
      },
    );

  requests
    .command('reject')
    .description("Refuse a pending request; the category's words are mailed to the person who asked")
    .argument('<id>', 'request id (r_...)')
    .option('--category <category>', categoryHelp)
    .option(
      '--reason <text>',
      "why, in the operator's words (kept in the audit, never mailed; at most 1000 characters)",
    )
    .option('--send', "mail the category's words (the default)")
    .option('--no-send', 'mail nobody (a request nobody should hear from us about)')
    .action(async (id: string, options: { category?: string; reason?: string; send?: boolean }) => {
      const category = requireDecisionCategory(options.category, '--category');
      const { request, delivery } = await withService((service) =>
        service.reject(id, { category, reason: options.reason }, { send: options.send !== false }),
      );
      cli.out(
        `Rejected ${request.id} (${request.email}).\n${delivery ? deliveryLine(delivery) : 'Nobody was mailed (--no-send).'}`,
      );
    });

  requests
    .command('digest')
    .description('The pending requests in one message; mailed to OPERATOR_EMAIL with --send')
    .option('--send', 'mail the digest to OPERATOR_EMAIL')
    .action(async (options: { send?: boolean }) => {
      const { pending, delivery } = await withService((service) => service.digest(options.send === true));
      const lines =
        pending.length === 0
          ? ['No key request is waiting.']
          : [
              `${pending.length} key request${pending.length === 1 ? '' : 's'} waiting:`,
              ...pending.map(
                (view) =>
                  `  ${view.id}  ${view.createdAt}  ${view.plan}  ${view.email}  ${view.reasons.join('; ') || '-'}`,
              ),
            ];
      if (delivery) lines.push(deliveryLine(delivery));
      cli.out(lines.join('\n'));
    });
}
