import type { Command } from 'commander';
import { corpusStateRow } from '../data/operatorAudit.js';
import { createOperatorApi } from '../operator/operatorApi.js';
import type { CliContext } from './keyCommands.js';

/** The corpus commands that replace the loaded corpus (unless they only write a file or count). */
const loads: Record<string, (options: Record<string, unknown>) => boolean> = {
  generate: (options) => options.output === undefined,
  import: (options) => options.dryRun !== true,
};

/**
 * Records every corpus load in the audit: the corpus commands live in @quotes/corpus, which
 * knows nothing of the audit, so the CLI reads the loaded corpus before and after the command
 * and records the change when its version moved (a refused or failed load records nothing).
 */
export function auditCorpusLoads(program: Command, cli: CliContext): void {
  let before: Record<string, unknown> | null | undefined;
  const corpusLoad = (command: Command) => {
    const isLoad = command.parent?.name() === 'corpus' ? loads[command.name()] : undefined;
    return isLoad?.(command.opts()) === true;
  };
  program.hook('preAction', async (_program, command) => {
    if (corpusLoad(command)) before = await cli.run((database) => corpusStateRow(database.db));
  });
  program.hook('postAction', async (_program, command) => {
    if (!corpusLoad(command)) return;
    await cli.run(async (database) => {
      const after = await corpusStateRow(database.db);
      if (after === null || after.version === before?.version) return;
      await createOperatorApi(database).recordAction({
        action: `corpus ${command.name()}`,
        target: 'corpus',
        before: before ?? null,
        after: { ...after, arguments: command.args },
      });
    });
  });
}
