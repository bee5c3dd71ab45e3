import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { parentPid } from './corePinning.js';
import type { MeasuredWindow } from './loadRun.js';

/**
 * What one measured run cost beyond its requests/s: the CPU of the server processes, of
 * PostgreSQL and of a balancer, and the database's transactions, rows written and WAL, each per
 * answered call. Read from /proc (user + system ticks, 100 a second on Linux whatever the kernel's
 * HZ) and pg_stat_database, in a window around the run: PostgreSQL publishes a backend's counts
 * at most once a second, so the counts of the warm-up just before and of the run's last second
 * trade places at the window's two ends (the same load on both sides). PostgreSQL's processes are
 * those of pg_stat_activity when the run starts: a connection opened during it is not counted.
 */
export interface CallCosts {
  /** CPU of the processes serving the run (the server processes, or the floor's), µs per call. */
  serverMicros: number;
  /** CPU of PostgreSQL's processes (backends and background workers), µs per call; null where they are not on this machine. */
  databaseMicros: number | null;
  /** CPU of the balancer in front, µs per call; null without one. */
  balancerMicros: number | null;
  /** Transactions committed or rolled back in the database, per call and per second. */
  transactionsPerCall: number;
  transactionsPerSecond: number;
  /** Rows inserted, updated or deleted, per call. */
  rowsWrittenPerCall: number;
  /** WAL written by the whole cluster, bytes per call. */
  walBytesPerCall: number;
  /** Connections open to the database at the end of the run. */
  connections: number;
}

const ticksPerSecond = 100;

/** A process's user + system CPU in ticks (its threads included), or null once it is gone. */
async function processTicks(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces, inside parentheses): utime is the 14th, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

async function isPostgresProcess(pid: number): Promise<boolean> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes('postgres');
  } catch {
    return false;
  }
}

interface Snapshot {
  at: number;
  ticks: Map<number, number>;
  transactions: number;
  rowsWritten: number;
  walLsn: string;
  connections: number;
}

/** The processes whose CPU a window reads: the target's (server processes or the floor) and a balancer's. */
export interface MeteredPids {
  servers: readonly number[];
  balancer?: number;
}

/** Counters read around one run: opened when its warm-up is over, closed when it has ended. */
export interface CostWindow extends MeasuredWindow {
  /** The run's costs per call, once closed; null for a run that answered nothing. */
  costs(calls: number): Promise<CallCosts | null>;
}

/** Measures runs on one database, over one connection of its own. */
export class CostMeter {
  private constructor(private readonly client: pg.Client) {}

  static async open(databaseUrl: string): Promise<CostMeter> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    return new CostMeter(client);
  }

  /** A window for a run that opens it itself (runLoad, between its warm-up and its measured run). */
  window(pids: MeteredPids): CostWindow {
    let databasePids: number[] = [];
    let before: Snapshot | undefined;
    let after: Snapshot | undefined;
    const targetPids = [...pids.servers, ...(pids.balancer === undefined ? [] : [pids.balancer])];
    return {
      open: async () => {
        databasePids = await this.postgresPids();
        before = await this.snapshot([...targetPids, ...databasePids]);
      },
      close: async () => {
        after = await this.snapshot([...targetPids, ...databasePids]);
      },
      costs: async (calls) => {
        if (!before || !after) throw new Error('a cost window read before it was opened and closed');
        return calls === 0 ? null : this.costs(pids, databasePids, before, after, calls);
      },
    };
  }

  /** Runs `run` (the measured load, no warm-up inside it) and returns its result with its costs per call. */
  async measure<Result extends { requests: number }>(
    pids: MeteredPids,
    run: () => Promise<Result>,
  ): Promise<{ result: Result; costs: CallCosts | null }> {
    const window = this.window(pids);
    await window.open();
    const result = await run();
    await window.close();
    return { result, costs: await window.costs(result.requests) };
  }

  private async costs(
    pids: MeteredPids,
    databasePids: readonly number[],
    before: Snapshot,
    after: Snapshot,
    calls: number,
  ): Promise<CallCosts> {
    const cpuMicros = (list: readonly number[]) => {
      let ticks = 0;
      for (const pid of list) {
        const start = before.ticks.get(pid);
        const end = after.ticks.get(pid);
        if (start !== undefined && end !== undefined) ticks += end - start;
      }
      return (ticks / ticksPerSecond) * 1e6;
    };
    const seconds = (after.at - before.at) / 1000;
    const wal = Number(
      (
        await this.client.query<{ bytes: string }>('SELECT pg_wal_lsn_diff($1, $2)::text AS bytes', [
          after.walLsn,
          before.walLsn,
        ])
      ).rows[0]?.bytes ?? 0,
    );
    const transactions = after.transactions - before.transactions;
    return {
      serverMicros: round(cpuMicros(pids.servers) / calls),
      databaseMicros: databasePids.length === 0 ? null : round(cpuMicros(databasePids) / calls),
      balancerMicros: pids.balancer === undefined ? null : round(cpuMicros([pids.balancer]) / calls),
      transactionsPerCall: round(transactions / calls, 4),
      transactionsPerSecond: Math.round(transactions / seconds),
      rowsWrittenPerCall: round((after.rowsWritten - before.rowsWritten) / calls, 4),
      walBytesPerCall: round(wal / calls),
      connections: after.connections,
    };
  }

  async close(): Promise<void> {
    await this.client.end();
  }

  /**
   * PostgreSQL's processes on this machine with their postmaster, whose later connections
   * inherit its core: what a duet pins to the server's side (none when the database is elsewhere).
   */
  async postgresProcesses(): Promise<number[]> {
    const pids = await this.postgresPids();
    const parents = new Set<number>();
    for (const pid of pids) {
      const parent = await parentPid(pid);
      if (parent !== null && (await isPostgresProcess(parent))) parents.add(parent);
    }
    return [...new Set([...pids, ...parents])];
  }

  /** PostgreSQL's processes on this machine (none when the database is elsewhere). */
  private async postgresPids(): Promise<number[]> {
    const { rows } = await this.client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity');
    const local: number[] = [];
    for (const { pid } of rows) if (await isPostgresProcess(pid)) local.push(pid);
    return local;
  }

  private async snapshot(pids: readonly number[]): Promise<Snapshot> {
    const ticks = new Map<number, number>();
    for (const pid of pids) {
      const value = await processTicks(pid);
      if (value !== null) ticks.set(pid, value);
    }
    const { rows } = await this.client.query<{
      transactions: string;
      rows_written: string;
      lsn: string;
      connections: number;
    }>(`SELECT xact_commit + xact_rollback AS transactions, tup_inserted + tup_updated + tup_deleted AS rows_written,
              pg_current_wal_lsn()::text AS lsn,
              (SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database()) AS connections
       FROM pg_stat_database WHERE datname = current_database()`);
    const row = rows[0];
    if (!row) throw new Error('pg_stat_database has no row for this database');
    return {
      at: Date.now(),
      ticks,
      transactions: Number(row.transactions),
      rowsWritten: Number(row.rows_written),
      walLsn: row.lsn,
      connections: row.connections,
    };
  }
}

function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
