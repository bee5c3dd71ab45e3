import type { CorpusSwap, LoadRecorder } from '@quotes/corpus';
import type { Database } from '@quotes/database';
import { Kysely, PostgresDialect, type PostgresPoolClient } from 'kysely';
import { createOperatorApi } from '@quotes/accounts';

/**
 * Kysely over the corpus loader's own connection, inside its swap transaction: the audit entry is
 * written by the operator API as every other one is, and commits with the corpus or not at all.
 */
function onLoaderSession(client: CorpusSwap['client']): Kysely<Database> {
  // Released to no pool and never ended here: the loader owns the connection.
  const session = { query: client.query.bind(client), release: () => undefined } as unknown as PostgresPoolClient;
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool: { connect: async () => session, end: async () => undefined, options: {} } }),
  });
}

/**
 * Records every corpus load in the audit: the corpus commands live in @quotes/corpus, which
 * knows nothing of the audit, so the CLI hands them a hook their swap runs before it commits.
 */
export const corpusLoadRecorder: LoadRecorder = (command, args) => async (swap) => {
  await createOperatorApi({ db: onLoaderSession(swap.client) }).recordAction({
    action: `corpus ${command}`,
    target: 'corpus',
    before: swap.before,
    after: { ...swap.after, arguments: args },
  });
};
