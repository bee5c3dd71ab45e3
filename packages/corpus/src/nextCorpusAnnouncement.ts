import type pg from 'pg';
import { corpusListenerName, corpusNextChannel, corpusPreparedChannel } from '@quotes/database';

export interface PreparedServers {
  /** Servers listening when the next corpus was announced. */
  listening: number;
  /** Of those, the ones that answered (index built, or given up) before the deadline. */
  answered: number;
}

const pollMs = 25;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function listeningServers(client: pg.Client): Promise<number[]> {
  const result = await client.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
    [corpusListenerName],
  );
  return result.rows.map((row) => row.pid);
}

/**
 * Tells every server that the corpus `version` is committed as quotes_next and waits, at most
 * `deadlineMs`, until each server that was listening has answered (or disconnected), so the swap
 * that follows finds their next index built: the first calls after a reload then cost what calls
 * after a start cost. A server that does not answer in time builds its index when the swap's
 * notification arrives. Must run outside a transaction: notifications are delivered
 * to an idle session only.
 */
export async function announceNextCorpus(
  client: pg.Client,
  version: number,
  deadlineMs: number,
): Promise<PreparedServers> {
  const answered = new Set<number>();
  const onNotification = (message: pg.Notification) => {
    if (message.channel === corpusPreparedChannel && message.payload === String(version))
      answered.add(message.processId);
  };
  client.on('notification', onNotification);
  try {
    await client.query(`LISTEN ${corpusPreparedChannel}`);
    // Taken before the announcement: a server that starts listening later never hears it.
    const expected = await listeningServers(client);
    await client.query('SELECT pg_notify($1, $2)', [corpusNextChannel, String(version)]);
    const deadline = performance.now() + deadlineMs;
    let waiting = expected;
    while (waiting.length > 0 && performance.now() < deadline) {
      await sleep(Math.min(pollMs, Math.max(0, deadline - performance.now())));
      const alive = new Set(await listeningServers(client));
      waiting = waiting.filter((pid) => alive.has(pid) && !answered.has(pid));
    }
    return { listening: expected.length, answered: expected.filter((pid) => answered.has(pid)).length };
  } finally {
    client.off('notification', onNotification);
    await client.query(`UNLISTEN ${corpusPreparedChannel}`).catch(() => undefined);
  }
}
