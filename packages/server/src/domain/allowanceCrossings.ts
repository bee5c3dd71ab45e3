import { thresholdReached } from '@quotes/accounts/rules';

/**
 * Tells whoever listens (the holder mail's sweeper) that a call just took a key's allowance to a
 * mailed threshold (80%, 100%), so the holder hears of it within seconds, not at the next sweep.
 * The request path only signals; the notice itself is found and claimed in the database.
 */
export class AllowanceCrossings {
  private listener: (() => void) | undefined;

  listen(listener: () => void): void {
    this.listener = listener;
  }

  /** Called with a counted call's period use (this call included) and its allowance. */
  counted(used: number, allowance: number | null): void {
    if (allowance === null || this.listener === undefined) return;
    if (thresholdReached(used, allowance) !== thresholdReached(used - 1, allowance)) this.listener();
  }
}
