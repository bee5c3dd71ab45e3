import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import type pg from 'pg';

/**
 * One line per counted call, written ahead of its answer: the answers of a turn of the event loop
 * are held until that turn's lines are written, with one write(2) for them all (a write per call
 * cost 90-110 µs of server CPU per call on this machine's virtualised system calls, against 35 µs
 * for the whole call), then sent. A turn that runs longer than `maxHoldMs` (a flood's calls read
 * in one go) does not hold its first answers to its end: the first call recorded past the hold
 * writes the lines so far and sends their answers (decision 0064). A SIGKILL so never takes an
 * answered call that is not in the page cache; the calls a killed server had not flushed are read
 * back from here by the next server started on this host (and by any server on it every sweep).
 * The write is not fsynced: a process killed is the fault covered, not the machine losing power.
 * Each counting round begins a new file (a generation): once the round commits, with the
 * generation in `count_journals` in the same transaction, every call of that file and the ones
 * before it is in `monthly_usage`, and the files go. A file's calls are so added exactly once: by
 * the round, or by the one recovery that finds its generation above the recorded one (under that
 * row's lock).
 */
/** The journals this process writes (several servers may run in one process, as in tests). */
const openHere = new Set<string>();

export class CountJournal {
  private fd: number;
  private generation = 1;
  private callsInFile = 0;
  /** Lines of this turn of the event loop, written at its end (setImmediate) or by a rotation. */
  private pending = '';
  /** The answers of this turn, sent once its lines are written. */
  private held: Array<() => void> = [];
  private turnEnd: NodeJS.Immediate | undefined;
  /** When the first of the held answers was recorded (performance.now). */
  private heldSince = 0;
  /** Generations written to disk and not yet known to be in monthly_usage. */
  private readonly files: number[] = [1];
  /** A file operation failed: journaling stopped, the folder removed (a sweep must never add what a round wrote). */
  private broken = false;

  constructor(
    readonly dir: string,
    private readonly onError: (error: unknown) => void = () => undefined,
    /** How long an answer is held for its line at most, when its turn runs longer (ms). */
    private readonly maxHoldMs = 1,
  ) {
    mkdirSync(dir, { recursive: true });
    this.fd = openSync(join(dir, '1'), 'a');
    openHere.add(dir);
  }

  /**
   * Appends one call, written with the others of this turn of the event loop; `send` (its answer,
   * which must not throw) runs once that write is done, or at once when journaling stopped.
   */
  record(keyId: string, monthKey: string, send: () => void): void {
    if (this.broken) {
      send();
      return;
    }
    this.pending += `${keyId} ${monthKey}\n`;
    this.callsInFile++;
    this.held.push(send);
    const now = performance.now();
    if (this.held.length === 1) this.heldSince = now;
    else if (now - this.heldSince >= this.maxHoldMs) {
      // A long turn: what it answered so far goes now, not at its end.
      if (this.turnEnd) clearImmediate(this.turnEnd);
      this.endTurn();
      return;
    }
    this.turnEnd ??= setImmediate(this.endTurn);
  }

  /** The turn's lines written (or journaling stopped): its answers go. */
  private readonly endTurn = (): void => {
    this.turnEnd = undefined;
    this.write();
    this.release();
  };

  /** Starts a new file for the calls from now on; the generation returned holds every call recorded so far (0: none). */
  rotate(): number {
    if (this.broken) return 0;
    if (this.callsInFile === 0) return this.generation - 1;
    try {
      this.write();
      closeSync(this.fd);
      const done = this.generation++;
      this.fd = openSync(join(this.dir, String(this.generation)), 'a');
      this.files.push(this.generation);
      this.callsInFile = 0;
      return done;
    } catch (error) {
      this.fail(error);
      return 0;
    }
  }

  /** The calls of generations up to `generation` are in monthly_usage: their files go. */
  written(generation: number): void {
    try {
      while (!this.broken && this.files.length > 0 && (this.files[0] ?? 0) <= generation)
        unlinkSync(join(this.dir, String(this.files.shift())));
    } catch (error) {
      this.fail(error);
    }
  }

  /**
   * At the server's stop, after its last round: the folder goes when every call in it is known
   * written; when that round failed (the database gone first), it stays for the next sweep.
   */
  close(): void {
    if (this.turnEnd) clearImmediate(this.turnEnd);
    this.turnEnd = undefined;
    this.write();
    this.release();
    if (this.broken) return;
    try {
      closeSync(this.fd);
      // Only the current file left (the older ones' rounds committed), and no call in it.
      if (this.callsInFile === 0 && this.files.length === 1) {
        rmSync(this.dir, { recursive: true, force: true });
        try {
          // The database's folder too, when no other server's journal is in it.
          rmdirSync(dirname(this.dir));
        } catch {
          // Not empty: another server's journal.
        }
      }
    } catch (error) {
      this.fail(error);
    }
    openHere.delete(this.dir);
  }

  private write(): void {
    if (this.pending === '' || this.broken) return;
    try {
      writeSync(this.fd, this.pending);
    } catch (error) {
      this.fail(error);
    }
    this.pending = '';
  }

  /** Sends the answers held so far, in the order they came (each `send` handles its own failure). */
  private release(): void {
    if (this.held.length === 0) return;
    const held = this.held;
    this.held = [];
    for (const send of held) send();
  }

  private fail(error: unknown): void {
    if (this.broken) return;
    this.broken = true;
    this.pending = '';
    try {
      closeSync(this.fd);
    } catch {
      // Already closed.
    }
    try {
      rmSync(this.dir, { recursive: true, force: true });
    } catch {
      // Left behind, a sweep after this process ends may add some calls twice: reported below.
    }
    openHere.delete(this.dir);
    this.onError(error);
  }
}

/**
 * A name for the database the counts go to (its server's address, port and name, hashed): a
 * journal is only ever added to the database it was written for, whatever else shares DATA_DIR.
 */
export async function databaseScope(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query<{ scope: string }>(
    "SELECT concat_ws(':', inet_server_addr(), inet_server_port(), current_database()) AS scope",
  );
  return createHash('sha256')
    .update(rows[0]?.scope ?? '')
    .digest('hex')
    .slice(0, 16);
}

/** Where this process keeps its journal: one folder per database and per server process. */
export function journalDir(root: string, database: string, serverId: string): string {
  return join(root, database, `${hostname()}-${process.pid}-${serverId}`);
}

/** A journal left by a server that is gone: its calls by key and month, in generations above `after`. */
export interface DeadJournal {
  readonly serverId: string;
  readonly dir: string;
  /** Reads the calls of the generations above `after` (by `keyId monthKey`), and the highest generation found. */
  read(after: number): { calls: Map<string, number>; last: number };
  /** Deletes the folder once its calls are in monthly_usage. */
  remove(): void;
}

/**
 * The journals under `root`/`database` of servers on this host whose process has ended (a pid no
 * longer running, or this process's own; one reused by another process leaves its journal for a
 * later sweep).
 */
export function deadJournals(root: string, database: string, ownDir: string): DeadJournal[] {
  const base = join(root, database);
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return [];
  }
  const host = `${hostname()}-`;
  const dead: DeadJournal[] = [];
  for (const name of names) {
    const dir = join(base, name);
    if (dir === ownDir || openHere.has(dir) || !name.startsWith(host)) continue;
    const [pid, ...rest] = name.slice(host.length).split('-');
    // This process's own pid on a journal it does not write: a process before it on this host had
    // it (a container started again is pid 1 each time), so that one has ended.
    if (pid === undefined || rest.length === 0 || (Number(pid) !== process.pid && isRunning(Number(pid)))) continue;
    dead.push({
      serverId: rest.join('-'),
      dir,
      read: (after) => readJournal(dir, after),
      remove: () => rmSync(dir, { recursive: true, force: true }),
    });
  }
  return dead;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readJournal(dir: string, after: number): { calls: Map<string, number>; last: number } {
  const calls = new Map<string, number>();
  let last = after;
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return { calls, last };
  }
  for (const file of files) {
    const generation = Number(file);
    if (!Number.isInteger(generation) || generation <= after) continue;
    last = Math.max(last, generation);
    const text = readFileSync(join(dir, file), 'utf8');
    // A line cut by the kill has no newline: the call it began was never recorded whole.
    for (const line of text.slice(0, text.lastIndexOf('\n') + 1).split('\n')) {
      if (line === '') continue;
      calls.set(line, (calls.get(line) ?? 0) + 1);
    }
  }
  return { calls, last };
}
