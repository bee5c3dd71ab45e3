import cliProgress from 'cli-progress';
import type { LoadPhase } from '../loadCorpus.js';
import type { CorpusCliIo } from './corpusCliIo.js';

const _number = (value: number) => value.toLocaleString('en-US');

/** The progress line a load shows on a terminal as it goes. */
const phaseWords: Record<LoadPhase | 'read', string> = {
  read: 'reading',
  copy: 'streaming rows',
  build: 'building the new table',
  index: 'indexing',
  analyze: 'analysing',
  prepare: 'waiting for the servers to index it',
  swap: 'swapping it in',
  vacuum: 'vacuuming the new table',
};

export interface ProgressDisplay {
  /** A phase that streams (reading the file, copying rows) gives its count; the others give none. */
  update(phase: LoadPhase | 'read', count?: { done: number; total: number; detail: string }): void;
  stop(): void;
}

const percentOf = (done: number, total: number) =>
  total > 0 ? Math.floor((100 * Math.min(done, total)) / total) : 100;

/**
 * A bar on a terminal; elsewhere (CI, logs, pipes) plain lines: one as each phase starts, and for
 * a streaming phase one every few seconds and its final count. Both go to stderr: stdout is the report.
 */
export function progressDisplay(label: string, io: CorpusCliIo): ProgressDisplay {
  if (io.stdout.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: `${label} [{bar}] {percentage}% | {phase} {detail}`,
        stream: io.stderr as NodeJS.WritableStream & NodeJS.WriteStream,
        hideCursor: true,
        clearOnComplete: true,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(phase, count) {
        const total = Math.max(count?.total ?? 1, 1);
        const payload = { phase: phaseWords[phase], detail: count?.detail ?? '' };
        if (!started) bar.start(total, 0, payload);
        started = true;
        bar.setTotal(total);
        bar.update(count ? Math.min(count.done, total) : total, payload);
      },
      stop: () => started && bar.stop(),
    };
  }
  const everyMs = 5000;
  let phase: LoadPhase | 'read' | undefined;
  let latest: string | undefined;
  let written: string | undefined;
  let writtenAt = 0;
  const write = (line: string) => {
    io.stderr.write(`${label}: ${line}\n`);
    written = line;
    writtenAt = Date.now();
  };
  // A streaming phase ends with its final count, unless that is the line already written.
  const settle = () => {
    if (latest !== undefined && latest !== written) write(latest);
    latest = undefined;
  };
  return {
    update(next, count) {
      if (next !== phase) {
        settle();
        phase = next;
        writtenAt = Date.now();
        if (!count) write(phaseWords[next]);
      }
      if (!count) return;
      latest = `${phaseWords[next]} ${percentOf(count.done, count.total)}% (${count.detail})`;
      if (Date.now() - writtenAt >= everyMs) write(latest);
    },
    stop: settle,
  };
}

/** Anything unexpected becomes one line: the CLI prints messages, never stack traces. */
