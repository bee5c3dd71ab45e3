import pg from 'pg';
import { runAdmin } from './adminCommands.js';

/** The bench's databases: settled after the corpus is loaded, and keyed (keptCorpora.ts makes them). */

/** `use` on a connection to `url`, closed after. */
export async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * A checkpoint after the corpus is loaded, so the measurements do not share the disk with the
 * load's dirty pages being written out (at 1,500,000 quotes about 1.5 GB, spread by PostgreSQL
 * over the following minutes), then the corpus read into PostgreSQL's buffers (pg_prewarm). Each
 * needs rights a DATABASE_URL may lack (a superuser or pg_checkpoint; creating the extension):
 * without them the run goes on, and says so.
 */
export async function settleWrites(databaseUrl: string, log: (line: string) => void): Promise<void> {
  await withClient(databaseUrl, async (client) => {
    try {
      const began = Date.now();
      await client.query('CHECKPOINT');
      log(`  checkpoint after the load: ${((Date.now() - began) / 1000).toFixed(1)} s`);
    } catch (error) {
      log(
        `  no CHECKPOINT after the load (${error instanceof Error ? error.message : String(error)}): its writes may overlap the measurements`,
      );
    }
    // A bulk load passes through a small ring of buffers, so the table starts out of PostgreSQL's
    // cache; a database serving the corpus has it read in. Warmed here, the runs do not depend on
    // which scenario happens to read it first.
    try {
      const began = Date.now();
      await client.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
      const result = await client.query<{ blocks: number }>(
        "SELECT (pg_prewarm('quotes') + pg_prewarm('quotes_rank_key'))::int AS blocks",
      );
      log(
        `  ${result.rows[0]?.blocks ?? 0} blocks of the corpus read into PostgreSQL's buffers in ${((Date.now() - began) / 1000).toFixed(1)} s`,
      );
    } catch (error) {
      log(
        `  the corpus not read into PostgreSQL's buffers (${error instanceof Error ? error.message : String(error)}): the first scenarios read it from the kernel's cache`,
      );
    }
  });
}

/**
 * Bench keys are enterprise keys (no burst limit; the plan's own allowance, if any, as
 * `monthlyCalls`): the bench measures what the server can do, not the plans' calls per second.
 */
export async function createKey(databaseUrl: string, plan: string, monthlyCalls?: number): Promise<string> {
  const limit = monthlyCalls === undefined ? ['--unlimited'] : ['--monthly-calls', String(monthlyCalls)];
  const args = ['keys', 'create', '--client', `bench ${plan}`, '--plan', 'enterprise', ...limit, '--json'];
  const output = await runAdmin({ DATABASE_URL: databaseUrl }, args);
  return (JSON.parse(output) as { key: string }).key;
}

/**
 * The throughput scenarios' traffic comes from this many keys in turn, as a public API's does:
 * one key alone would measure the per-key bound on calls at once (8 per server process, see the
 * server's README) instead of the server.
 */
export const trafficKeys = 16;

export async function createKeys(databaseUrl: string, count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let index = 0; index < count; index++) keys.push(await createKey(databaseUrl, 'platform'));
  return keys;
}
