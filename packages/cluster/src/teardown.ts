/**
 * What a cluster started, stopped in the reverse order (the balancer first, the database last),
 * once. A step added after the stop began is stopped at once: a signal during start-up leaves
 * nothing running.
 */
export class Teardown {
  private readonly steps: Array<{ what: string; stop: () => Promise<void> }> = [];
  private stopped: Promise<void> | undefined;

  constructor(private readonly onError: (what: string, error: unknown) => void) {}

  get stopping(): boolean {
    return this.stopped !== undefined;
  }

  add(what: string, stop: () => Promise<void>): void {
    if (this.stopped) {
      void stop().catch((error: unknown) => this.onError(what, error));
      return;
    }
    this.steps.push({ what, stop });
  }

  run(): Promise<void> {
    this.stopped ??= (async () => {
      for (const step of this.steps.reverse()) {
        await step.stop().catch((error: unknown) => this.onError(step.what, error));
      }
    })();
    return this.stopped;
  }
}
