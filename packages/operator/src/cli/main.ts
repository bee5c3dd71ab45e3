#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { type Config, ConfigError } from '@quotes/service-base';
import { CorpusError } from '@quotes/corpus/errors';
import { visibleLines, visibleText } from '@quotes/text-rules';
import type { OpenedDatabase } from '@quotes/database';
import { MailError, OperatorError, type OperatorErrorCode } from '@quotes/accounts';
import { cliConfig, closeOpenDatabases, openCliDatabase, openMigratedDatabase, withDatabase } from './cliDatabase.js';
import { commanderErrorLine, isCommanderError } from '@quotes/service-base';
import { registerAuditCommands } from './auditCommands.js';
import { registerConsoleCommand } from './consoleCommand.js';
import { corpusLoadRecorder } from './corpusAudit.js';
import { registerDbCommands } from './dbCommands.js';
import { registerKeyCommands } from './keyCommands.js';
import { registerNotifyCommands } from './notifyCommands.js';
import { registerRequestCommands } from './requestCommands.js';
import { registerUsageCommands } from './usageCommands.js';

let config: Config | undefined;
const loadConfig = () => {
  config ??= cliConfig();
  return config;
};
const open = () => openMigratedDatabase(loadConfig());

const program = new Command('quotes-admin')
  .description('Operate the Quote Retrieval Service: keys, usage, corpus and database (same database as the server)')
  .showSuggestionAfterError(true)
  // Help goes to the terminal escaped like everything else; errors are printed below, in one style.
  .configureOutput({ writeErr: (text) => process.stderr.write(visibleLines(text)), outputError: () => undefined })
  .exitOverride();

const context = {
  config: loadConfig,
  open,
  openUnmigrated: () => openCliDatabase(loadConfig()),
  run: <T>(work: (database: OpenedDatabase) => Promise<T>) => withDatabase(open, work),
  // Tables and values escape what they print; this last pass catches anything else on its way to the terminal.
  out: (text: string) => process.stdout.write(`${visibleLines(text)}\n`),
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
if (!['keys', 'usage', 'db', 'notify', 'requests', 'audit', 'console'].includes(process.argv[2] ?? '')) {
  const { registerCorpusCommands } = await import('@quotes/corpus');
  registerCorpusCommands(
    program,
    open,
    () => ({ size: loadConfig().CORPUS_SIZE, seed: loadConfig().CORPUS_SEED }),
    corpusLoadRecorder,
  );
}

/** The exit status of each kind of refusal (the README's "Exit status" lists them); a bad flag is `invalid` too. */
const exitCodes: Record<OperatorErrorCode, number> = {
  failed: 1,
  invalid: 2,
  'not-found': 3,
  conflict: 4,
  refused: 5,
};

/** The first line of a message: errors are one line, never a stack trace. */
function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return visibleText(text.split('\n')[0]!.trim()) || 'failed';
}

// The console stops itself on a signal (server, then database); every other command is interrupted.
for (const [signal, code] of process.argv[2] === 'console' && process.argv[3] !== 'link'
  ? []
  : ([
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const)) {
  process.once(signal, () => {
    process.stderr.write(`quotes-admin: interrupted (${signal})\n`);
    void closeOpenDatabases().finally(() => process.exit(code));
  });
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and version asked for are already printed; an error is one line like every other.
    if (isCommanderError(error)) {
      process.stderr.write(`quotes-admin: ${oneLine(commanderErrorLine(error, program))}\n`);
      process.exitCode = exitCodes.invalid;
    } else process.exitCode = error.exitCode;
  } else {
    const known =
      error instanceof OperatorError ||
      error instanceof ConfigError ||
      error instanceof CorpusError ||
      error instanceof MailError;
    process.stderr.write(`quotes-admin: ${known ? '' : 'error: '}${oneLine(error)}\n`);
    process.exitCode = error instanceof OperatorError ? exitCodes[error.code] : 1;
  }
}
