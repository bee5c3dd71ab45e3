import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/** Set in the copy that runs in a process group of its own. */
const inOwnGroupVariable = 'QUOTES_CLUSTER_OWN_GROUP';

/**
 * A terminal's Ctrl-C reaches every process of its foreground group at once. The cluster stops
 * its children in order (HAProxy first, PostgreSQL last), but the embedded PostgreSQL runs in the
 * group of the process that started it: in the terminal's, a Ctrl-C stops it at once, before the
 * servers have written their last counts. So this program runs again in a group (and session) of
 * its own; this process only waits for it, passes it the signals it gets (SIGHUP, the terminal
 * gone, as SIGTERM) and exits with its code. Should this process end first (killed), the copy
 * sees its IPC channel close and stops as on a signal (see onFrontGone).
 *
 * Returns true in the copy, which goes on to run the cluster; false here.
 */
export function runInOwnProcessGroup(): boolean {
  if (process.env[inOwnGroupVariable] === '1') return true;
  const copy = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [inOwnGroupVariable]: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(signal, () => {
      if (copy.exitCode === null && copy.signalCode === null) copy.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
    });
  copy.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)));
  copy.on('error', (error) => {
    process.stderr.write(`quotes cluster: cannot start: ${error.message}\n`);
    process.exit(1);
  });
  return false;
}

/** In the copy: `stop` runs when the process that started it is gone (its IPC channel closed). */
export function onFrontGone(stop: () => void): void {
  process.on('disconnect', stop);
  // The channel alone keeps no event loop alive: the copy ends when its work does.
  process.channel?.unref();
}
