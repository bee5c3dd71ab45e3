import { execFile } from 'node:child_process';
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';

/**
 * Which core a process runs on, through util-linux's `taskset` (sched_setaffinity): a duet gives
 * each side a core of its own, so the two halves measured at the same moment do not contend
 * with each other, and anything else on the machine (other work, floating across the cores)
 * lands on both halves alike.
 */
const run = promisify(execFile);

/** Why a duet cannot run here, in words; null when it can (two cores or more, and taskset). */
export async function duetUnavailable(): Promise<string | null> {
  if (availableParallelism() < 2)
    return `a duet needs two cores, this machine gives ${availableParallelism()}: run --method alternating`;
  try {
    await run('taskset', ['-V']);
  } catch {
    return 'a duet pins each side to a core with taskset (util-linux), which is not on PATH: install util-linux or run --method alternating';
  }
  return null;
}

/** Every core of the machine, as taskset writes a list: what a process is given back after a duet. */
export const everyCore = `0-${availableParallelism() - 1}`;

/**
 * Tries per process: `taskset -a` sets each thread in turn and fails on one that ended meanwhile
 * (a worker thread, a V8 helper), while the process goes on.
 */
const pinTries = 5;

/** Puts every thread of each process on `core` (a core, or a list such as everyCore); a process gone meanwhile is left out. */
export async function pinToCore(pids: readonly number[], core: number | string): Promise<void> {
  await Promise.all(pids.map((pid) => pinProcess(pid, String(core), pinTries)));
}

async function pinProcess(pid: number, core: string, tries: number): Promise<void> {
  try {
    await run('taskset', ['-a', '-cp', core, String(pid)]);
  } catch (error) {
    if (!(await isRunning(pid))) return;
    if (tries <= 1) throw error;
    await pinProcess(pid, core, tries - 1);
  }
}

async function isRunning(pid: number): Promise<boolean> {
  return readFile(`/proc/${pid}/stat`).then(
    () => true,
    () => false,
  );
}

/** The parent of `pid` (from /proc), or null once it is gone. */
export async function parentPid(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // After the command (in parentheses, may hold spaces): state, then the parent's pid.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(parent) && parent > 1 ? parent : null;
  } catch {
    return null;
  }
}

/**
 * CPU shares per side (cgroup v1's cpu controller, where this machine keeps it). Pinned alone,
 * a side with more processes (the server, its load generator and PostgreSQL's backends, against
 * the floor and its load generator) would take a larger share of its core from other work than
 * the floor side does of its own, and more so the busier the machine: each side in a group of its
 * own competes as one, with the same weight, whatever its processes.
 */
const cpuGroups = '/sys/fs/cgroup/cpu';

/** A group for one side of a duet, or null where groups cannot be made (no cgroup v1 cpu controller, or no right to). */
export async function openSideGroup(name: string): Promise<string | null> {
  const group = `${cpuGroups}/quotes-bench-${process.pid}-${name}`;
  try {
    await mkdir(group);
    return group;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return group;
    return null;
  }
}

/** Moves each process (all its threads) into `group`; a process gone meanwhile is left out. */
export async function joinGroup(group: string, pids: readonly number[]): Promise<void> {
  for (const pid of pids)
    await writeFile(`${group}/cgroup.procs`, String(pid)).catch(async (error: unknown) => {
      if (await isRunning(pid)) throw error;
    });
}

/** Moves every process of `group` back to the root group and removes it. */
export async function closeSideGroup(group: string): Promise<void> {
  const members = (await readFile(`${group}/cgroup.procs`, 'utf8').catch(() => ''))
    .split('\n')
    .filter((line) => line !== '')
    .map(Number);
  await joinGroup(cpuGroups, members);
  await rmdir(group).catch(() => {});
}
