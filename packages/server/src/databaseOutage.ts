import type { Logger } from '@quotes/service-base';

/** The cause of a database failure in one line: its code and first message line, no stack. */
export function outageCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const message = error.message.split('\n')[0] ?? '';
  return typeof code === 'string' ? `${code}: ${message}` : message;
}

/**
 * One warning when the database stops answering, with its cause, and one line when it is back,
 * rather than a stack trace per refused request (a busy server would write megabytes a minute).
 */
export class DatabaseOutage {
  private since: number | undefined;
  private refused = 0;
  /** Outages begun since start: read by the metrics. */
  started = 0;

  constructor(private readonly log: Logger) {}

  get ongoing(): boolean {
    return this.since !== undefined;
  }

  failed(error: unknown): void {
    this.refused++;
    if (this.since !== undefined) return;
    this.since = Date.now();
    this.started++;
    this.log.warn({ cause: outageCause(error) }, 'database unavailable: answering 503 until it answers again');
  }

  succeeded(): void {
    if (this.since === undefined) return;
    this.log.info({ outageMs: Date.now() - this.since, failures: this.refused }, 'database available again');
    this.since = undefined;
    this.refused = 0;
  }
}
