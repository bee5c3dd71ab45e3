import pg from 'pg';

/** How the pool's connections reach PostgreSQL: directly (or a session pooler), or a transaction pooler. */
export type PoolMode = 'session' | 'transaction';

const transactionStart = /^\s*(begin|start\s+transaction)\b/i;

/**
 * A pg client whose queries carry no session state, for a pooler in transaction mode (PgBouncer
 * 1.18, Debian's, keeps nothing of a session between transactions and has no
 * `max_prepared_statements`):
 * - named prepared statements are sent unnamed: a name prepared in one transaction may be looked
 *   up on another server connection in the next, which does not have it;
 * - the statement deadline is set per transaction: every `BEGIN` sent through it is followed, in
 *   the same round trip, by `SET LOCAL statement_timeout`. A statement outside a transaction is
 *   bounded by the client's wait (pg's `query_timeout`), which closes the connection, and the
 *   pooler's `query_timeout` (deploy/pgbouncer.ini).
 * Queries given as objects with their own `submit` (cursors, COPY streams) pass through as they are.
 */
export function transactionPooledClient(statementTimeoutMs: number | undefined): typeof pg.Client {
  const setDeadline = statementTimeoutMs ? `; SET LOCAL statement_timeout = ${Math.trunc(statementTimeoutMs)}` : '';
  const query = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
  class TransactionPooledClient extends pg.Client {}
  // pg's query() has a dozen overloads; this passes every form on, changing only the text or config.
  TransactionPooledClient.prototype.query = function (this: pg.Client, first: unknown, ...rest: unknown[]) {
    let sent = first;
    if (typeof sent === 'string') {
      if (setDeadline && transactionStart.test(sent)) sent = `${sent}${setDeadline}`;
    } else if (sent && typeof sent === 'object' && !('submit' in sent) && 'name' in sent) {
      const { name: _unnamed, ...unnamed } = sent as pg.QueryConfig;
      sent = unnamed;
    }
    return query.call(this, sent, ...rest);
  } as pg.Client['query'];
  return TransactionPooledClient;
}
