import { readdirSync, readFileSync } from 'node:fs';

/** One process as /proc/PID/stat tells it. */
export interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  /** R, S, D, Z (exited, not yet reaped), ... */
  readonly state: string;
  readonly command: string;
}

/** Every process on the machine now (one that ends while being read is left out). */
export function processTable(): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command is in parentheses and may hold spaces and parentheses: the fields follow the last one.
      const close = stat.lastIndexOf(')');
      const [state, ppid, pgid] = stat.slice(close + 2).split(' ');
      entries.push({
        pid: Number(name),
        ppid: Number(ppid),
        pgid: Number(pgid),
        state: state ?? '?',
        command: readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').trim(),
      });
    } catch {
      // Ended meanwhile.
    }
  }
  return entries;
}

/** `root` and every process below it (children of children, whatever their group or session). */
export function processTree(root: number, table = processTable()): ProcessEntry[] {
  const tree = table.filter((entry) => entry.pid === root);
  for (let i = 0; i < tree.length; i++) tree.push(...table.filter((entry) => entry.ppid === tree[i]!.pid));
  return tree;
}

/**
 * Of `seen`, and of the processes of group `pgid`, those still running (an unreaped zombie has
 * ended; a pid now running another command was reused).
 */
export function stillRunning(seen: readonly ProcessEntry[], pgid: number): ProcessEntry[] {
  return processTable().filter(
    (entry) =>
      entry.state !== 'Z' &&
      (entry.pgid === pgid || seen.some((before) => before.pid === entry.pid && before.command === entry.command)),
  );
}
