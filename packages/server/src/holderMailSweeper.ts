import type { Kysely } from 'kysely';
import type { Database } from '@quotes/database';
import {
  type HolderMailOutcome,
  type HolderMailSettings,
  noticeWaitingRequests,
  sweepHolderMail,
} from '@quotes/accounts';
import { type Logger, settledWithin } from '@quotes/service-base';
import { outageCause } from './databaseOutage.js';

const nothing: HolderMailOutcome = { recorded: 0, sent: 0, skipped: 0, retrying: 0, failed: 0, waitingNoticed: 0 };
/** The longest close() waits for the send under way; a send cut short keeps its claim until the lease ends. */
const closeWaitMs = 5000;
/** How soon a call that reached 80% or 100% of an allowance has its holder's mail swept: after the counts' flush. */
export const promptSweepMs = 1000;

/**
 * Runs the holders' mail sweep, and then the operator's notice of waiting requests, every `intervalMs` (HOLDER_MAIL_SWEEP_MS; 0: never by itself), one
 * sweep at a time. Logs counts only: an address or a mail never reaches the log.
 */
export class HolderMailSweeper {
  private timer: NodeJS.Timeout | undefined;
  private prompt: NodeJS.Timeout | undefined;
  private running: Promise<HolderMailOutcome> | undefined;
  private closed = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: HolderMailSettings,
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {}

  start(): void {
    if (this.intervalMs <= 0) return;
    this.timer = setInterval(() => void this.sweep(), this.intervalMs);
    this.timer.unref();
  }

  /**
   * A sweep within promptSweepMs, once the counts of the call that asked are written (the counter
   * flushes every COUNT_FLUSH_MS); calls asking meanwhile share it. Only where sweeps run at all.
   */
  soon(): void {
    if (this.intervalMs <= 0 || this.closed || this.prompt !== undefined) return;
    this.prompt = setTimeout(() => {
      this.prompt = undefined;
      void this.sweep();
    }, promptSweepMs);
    this.prompt.unref();
  }

  /** Sweeps now, or joins the sweep under way. */
  sweep(): Promise<HolderMailOutcome> {
    if (this.closed) return Promise.resolve(nothing);
    this.running ??= sweepHolderMail(this.db, { ...this.settings, stopping: () => this.closed })
      .then((outcome) => {
        if (outcome.sent + outcome.retrying + outcome.failed > 0)
          this.log.info(
            { sent: outcome.sent, retrying: outcome.retrying, failed: outcome.failed, skipped: outcome.skipped },
            'holder mail sweep',
          );
        return outcome;
      })
      .catch((error: unknown) => {
        this.log.warn({ cause: outageCause(error) }, 'holder mail sweep failed; tried again at the next sweep');
        return nothing;
      })
      .then(async (outcome) => {
        if (this.closed) return outcome;
        try {
          const waitingNoticed = await noticeWaitingRequests(this.db, this.settings);
          if (waitingNoticed > 0) this.log.info({ waiting: waitingNoticed }, 'operator told of waiting key requests');
          return { ...outcome, waitingNoticed };
        } catch (error) {
          this.log.warn(
            { cause: outageCause(error) },
            'the notice of waiting key requests failed; tried again at the next sweep',
          );
          return outcome;
        }
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** Stops sweeping: a sweep under way ends after its current send, waited for at most closeWaitMs. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.prompt);
    if (this.running) await settledWithin(this.running, closeWaitMs);
  }
}
