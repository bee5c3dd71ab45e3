import { Command, CommanderError } from 'commander';
import {
  type CliIo,
  type Config,
  ConfigError,
  commanderErrorLine,
  isCommanderError,
  parseConfig,
} from '@quotes/service-base';
import { CorpusError } from '@quotes/corpus/errors';
import { visibleLines, visibleText } from '@quotes/text-rules';
import type { OpenedDatabase } from '@quotes/database';
import { AllowanceChoiceError, MailError, OperatorError, type OperatorErrorCode } from '@quotes/accounts';
import { type CliDatabases, cliDatabases, withDatabase } from './cliDatabase.js';
import { registerAuditCommands } from './auditCommands.js';
import { registerConsoleCommand } from './consoleCommand.js';
import { corpusLoadRecorder } from './corpusAudit.js';
import { registerDbCommands } from './dbCommands.js';
import { registerKeyCommands } from './keyCommands.js';
import { registerNotifyCommands } from './notifyCommands.js';
import { registerRequestCommands } from './requestCommands.js';
import { registerUsageCommands } from './usageCommands.js';

/** The exit status of each kind of refusal (the README's "Exit status" lists them); a bad flag is `invalid` too. */
const exitCodes: Record<OperatorErrorCode, number> = {
  failed: 1,
  invalid: 2,
  'not-found': 3,
  conflict: 4,
  refused: 5,
};

/** The CLI's words for a per-key plan's allowance: the flags `keys create`, `change-plan` and `requests approve` take. */
export const allowanceFlags = { calls: '--monthly-calls', unlimited: '--unlimited' };

/** The first line of a message: errors are one line, never a stack trace; a plan rule names the flags. */
function oneLine(error: unknown): string {
  const text =
    error instanceof AllowanceChoiceError
      ? error.in(allowanceFlags)
      : error instanceof Error
        ? error.message
        : String(error);
  return visibleText(text.split('\n')[0]!.trim()) || 'failed';
}

const commandsWithoutCorpus = ['keys', 'usage', 'db', 'notify', 'requests', 'audit', 'console'];

export interface AdminCli {
  /** Runs one command line (the arguments after `quotes-admin`); resolves with its exit status. */
  run(argv: readonly string[]): Promise<number>;
  /** Closes whatever database a command has open (an interrupted command, a stopping console). */
  closeOpenDatabases(): Promise<void>;
}

/**
 * `quotes-admin` on the given environment and streams: the bin (main.ts) gives it the process's,
 * tests their own. Nothing is kept between runs but the databases a running command has open.
 */
export function createAdminCli(io: CliIo): AdminCli {
  const databases: CliDatabases = cliDatabases();
  return {
    closeOpenDatabases: () => databases.closeAll(),
    async run(argv) {
      let config: Config | undefined;
      const loadConfig = () => {
        config ??= parseConfig(io.env);
        return config;
      };
      const open = () => databases.openMigrated(loadConfig());
      const program = new Command('quotes-admin')
        .description(
          'Operate the Quote Retrieval Service: keys, usage, corpus and database (same database as the server)',
        )
        .showSuggestionAfterError(true)
        // Help goes out escaped like everything else; errors are printed below, in one style.
        .configureOutput({
          writeOut: (text) => io.stdout.write(visibleLines(text)),
          writeErr: (text) => io.stderr.write(visibleLines(text)),
          outputError: () => undefined,
        })
        .exitOverride();
      const context = {
        config: loadConfig,
        open,
        openUnmigrated: () => databases.open(loadConfig()),
        run: <T>(work: (database: OpenedDatabase) => Promise<T>) => withDatabase(open, work),
        // Tables and values escape what they print; this last pass catches anything else on its way out.
        out: (text: string) => {
          io.stdout.write(`${visibleLines(text)}\n`);
        },
        // Written as it is (CSV, already neutralised by its writer).
        write: (text: string) => {
          io.stdout.write(text);
        },
        err: (text: string) => {
          io.stderr.write(`${text}\n`);
        },
      };
      registerKeyCommands(program, context);
      registerUsageCommands(program, context);
      registerDbCommands(program, context);
      registerNotifyCommands(program, context);
      registerRequestCommands(program, context);
      registerAuditCommands(program, context);
      registerConsoleCommand(program, context);
      // The corpus commands load the generator and its data (half a second on these machines): only
      // when the command line may need them (a corpus command, help, or a misspelt command to suggest for).
      if (!commandsWithoutCorpus.includes(argv[0] ?? '')) {
        const { registerCorpusCommands } = await import('@quotes/corpus');
        registerCorpusCommands(
          program,
          open,
          () => ({ size: loadConfig().CORPUS_SIZE, seed: loadConfig().CORPUS_SEED }),
          corpusLoadRecorder,
          io,
        );
      }
      try {
        await program.parseAsync([...argv], { from: 'user' });
        return 0;
      } catch (error) {
        if (error instanceof CommanderError) {
          // Help and version asked for are already printed; an error is one line like every other.
          if (!isCommanderError(error)) return error.exitCode;
          io.stderr.write(`quotes-admin: ${oneLine(commanderErrorLine(error, program))}\n`);
          return exitCodes.invalid;
        }
        const known =
          error instanceof OperatorError ||
          error instanceof ConfigError ||
          error instanceof CorpusError ||
          error instanceof MailError;
        io.stderr.write(`quotes-admin: ${known ? '' : 'error: '}${oneLine(error)}\n`);
        return error instanceof OperatorError ? exitCodes[error.code] : 1;
      }
    },
  };
}
