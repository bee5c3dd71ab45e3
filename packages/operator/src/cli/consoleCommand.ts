import { isIP } from 'node:net';
import { type Command, InvalidArgumentError } from 'commander';
import { remoteFlag, requireConsoleHost } from '../console/consoleSecurity.js';
import { publicAsset } from '../console/consoleAssets.js';
import { consoleUrl, signInUrl, startConsole } from '../console/consoleServer.js';
import { createSignInLink, signInLinkLifetimeMs } from '../data/consoleSignInLinks.js';
import { cliMailer } from './cliMail.js';
import { OperatorError } from '@quotes/accounts';
import { keyRequestBounds, redactSecrets } from '@quotes/service-base';
import { wholeNumber } from './cliOptions.js';
import { signalThresholdsOf } from '@quotes/accounts/rules';
import type { CliContext } from './keyCommands.js';

function hostAddress(text: string): string {
  if (text !== 'localhost' && isIP(text) === 0)
    throw new InvalidArgumentError('--host must be an IP address (127.0.0.1, ::1) or localhost');
  return text;
}

/** Whether a console listens at `url`: its public stylesheet answers, within 2 s. */
async function consoleAnswersAt(url: string): Promise<boolean> {
  try {
    const answer = await fetch(`${url}/assets/${publicAsset}`, {
      signal: AbortSignal.timeout(2000),
      headers: { connection: 'close' },
    });
    await answer.body?.cancel();
    return answer.status === 200 && (answer.headers.get('content-type') ?? '').startsWith('text/css');
  } catch {
    return false;
  }
}

/** Resolves at the first SIGINT or SIGTERM. */
const stopSignal = () =>
  new Promise<NodeJS.Signals>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve(signal));
  });

export function registerConsoleCommand(program: Command, cli: CliContext): void {
  const consoleCommand = program.command('console');
  consoleCommand
    .command('link')
    .description(
      'Print a new single-use sign-in link for a console over this database (a second browser or operator; the console keeps running)',
    )
    // The console's own --port and --host say where it listens (`console --port 4200 link`, or after `link`).
    .configureHelp({ showGlobalOptions: true })
    .action(async (_options: unknown, command: Command) => {
      const options = command.optsWithGlobals<{ port: number; host: string }>();
      const url = consoleUrl(options.host, options.port);
      // A link to where no console listens would be a dead end: the console is asked first.
      if (!(await consoleAnswersAt(url)))
        throw new OperatorError(
          `no console answers at ${url}: name the running console's port (quotes-admin console link --port P), or start one (quotes-admin console)`,
          'not-found',
        );
      const token = await cli.run((database) => createSignInLink(database.db, new Date()));
      cli.out(
        `Sign in (the link works once, within ${signInLinkLifetimeMs / 60_000} minutes): ${signInUrl(url, token)}`,
      );
    });
  consoleCommand
    .description('Serve the operator console (a web UI) and print its one-time sign-in URL; Ctrl-C stops it')
    .option('--port <port>', 'port to listen on (0: any free one)', wholeNumber('--port', 0, 65_535), 4100)
    .option(
      '--host <address>',
      'address to listen on: loopback only (127.0.0.1, ::1, localhost)',
      hostAddress,
      '127.0.0.1',
    )
    .option(
      remoteFlag,
      'let --host be an address beyond loopback although the console speaks plain HTTP: the sign-in link and session cookie then cross the network in clear text (warned of at every start)',
    )
    .action(async (options: { port: number; host: string; allowRemoteInsecure?: boolean }) => {
      // Refused before the database is opened: nothing is served, nothing is printed but the reason.
      requireConsoleHost(options.host, options.allowRemoteInsecure === true);
      const stopped = stopSignal();
      const config = cli.config();
      const database = await cli.open();
      // Approvals and rejections mail as `requests approve --send` does, through the same settings.
      const mailer = cliMailer(config);
      try {
        const running = await startConsole({
          database,
          host: options.host,
          port: options.port,
          signalThresholds: signalThresholdsOf(config),
          allowRemoteInsecure: options.allowRemoteInsecure === true,
          keyRequests: {
            mailer,
            publicBaseUrl: config.PUBLIC_BASE_URL,
            bounds: keyRequestBounds(config),
            operatorEmail: config.OPERATOR_EMAIL,
          },
          // The service's line rule: no key, token or address reaches the operator's terminal log.
          log: (line) => cli.err(redactSecrets(line)),
        }).catch((error: NodeJS.ErrnoException) => {
          if (error instanceof OperatorError) throw error;
          throw new OperatorError(
            `cannot listen on ${options.host}:${options.port}: ${error.code ?? error.message}`,
            'failed',
          );
        });
        cli.out(
          `Quotes console at ${running.url}\nSign in (the link works once, within ${signInLinkLifetimeMs / 60_000} minutes): ${running.signInUrl}\nAnother link, later: quotes-admin console link${options.port === 4100 ? '' : ` --port ${options.port}`}`,
        );
        const signal = await stopped;
        cli.err(`quotes-admin: console stopped (${signal})`);
        await running.close();
      } finally {
        mailer.close();
        await database.close();
      }
    });
}
