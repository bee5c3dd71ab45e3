import type { Child } from './childProcess.js';
import { restartDelayMs, steadyRunMs } from './restartBackoff.js';
import type { ServerProcess, ServerSpec } from './serverProcess.js';

export interface SupervisorOptions {
  /** Starts the server's process and resolves once it is ready; `onSpawn` gets it before that. */
  start(spec: ServerSpec, onSpawn: (child: Child) => void): Promise<ServerProcess>;
  /** A stop's deadline: SIGTERM (the server drains), then SIGKILL after this. */
  stopWithinMs: number;
  /** Resolves once the balancer has the server UP again (rejects past its deadline). */
  balanced(name: string): Promise<void>;
  /** Lines for the person at the terminal. */
  progress(line: string): void;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** The first line of an error's message, short enough for one line of progress. */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').slice(0, 200);
}

/**
 * One server of the cluster, started again whenever it exits without being asked (a crash, an
 * OOM kill, a SIGKILL), after a back-off (restartBackoff), as systemd's Restart=always does; a
 * stop the cluster asks for (a restart, the cluster's own stop) is never followed by a start.
 * Starts and asked restarts run one at a time.
 */
export class SupervisedServer {
  private current!: ServerProcess;
  /** The process started last, ready or still starting. */
  private spawned: Child | undefined;
  /** Processes this supervisor stopped itself: their exits are not restarted. */
  private readonly asked = new WeakSet<Child>();
  private closed = false;
  private pending: NodeJS.Timeout | undefined;
  /** Exits in a row each before the server had run steadily (the back-off's exponent). */
  private quickExits = 0;
  private readyAt = 0;
  /** Starts and asked restarts, one after the other. */
  private lane: Promise<unknown> = Promise.resolve();
  /** Times it was started again after an exit it was not asked for. */
  restarts = 0;

  constructor(
    readonly spec: ServerSpec,
    private readonly options: SupervisorOptions,
  ) {}

  /** The first start; rejects when the server does not become ready (nothing is restarted then). */
  async start(): Promise<void> {
    await this.inLane(() => this.launch());
  }

  /** The process serving now (the last one that became ready). */
  get server(): ServerProcess {
    return this.current;
  }

  /**
   * Stops the server (SIGTERM: it drains), starts it again, and resolves once the balancer has it
   * UP. A start that fails is retried after the back-off, as after an exit.
   */
  async restart(): Promise<void> {
    const started = await this.inLane(async () => {
      if (this.closed) return false;
      this.cancelPending();
      if (this.spawned) await this.stopChild(this.spawned);
      const stoppedAt = performance.now();
      try {
        await this.launch();
      } catch (error) {
        if (!this.closed) this.scheduleStart(`did not start (${firstLine(error)})`, stoppedAt);
        throw error;
      }
      return true;
    });
    if (started) await this.options.balanced(this.spec.name);
  }

  /** Stops the server for good: a start under way is cut short, no restart follows. */
  async close(): Promise<void> {
    this.closed = true;
    this.cancelPending();
    const child = this.spawned;
    // A start in the lane waits for readiness: stopping its process ends that wait at once.
    await Promise.all([child && this.stopChild(child), this.lane]);
    if (this.spawned && this.spawned !== child) await this.stopChild(this.spawned);
  }

  private async launch(): Promise<ServerProcess> {
    if (this.closed) throw new Error('the cluster is stopping');
    const server = await this.options.start(this.spec, (child) => {
      this.spawned = child;
      if (this.closed) void this.stopChild(child);
    });
    this.current = server;
    this.readyAt = performance.now();
    void server.child.whenExited().then(() => this.exited(server.child));
    return server;
  }

  private exited(child: Child): void {
    if (this.closed || this.asked.has(child) || child !== this.spawned) return;
    if (performance.now() - this.readyAt >= steadyRunMs) this.quickExits = 0;
    const how = child.process.signalCode ?? `code ${child.process.exitCode}`;
    this.scheduleStart(`exited (${how}) without being asked`, performance.now());
  }

  private scheduleStart(what: string, exitedAt: number): void {
    const delayMs = restartDelayMs(this.quickExits++);
    this.options.progress(`server ${this.spec.name} ${what}; starting it again in ${seconds(delayMs)} s`);
    this.pending = setTimeout(() => {
      this.pending = undefined;
      void this.startAgain(exitedAt);
    }, delayMs);
  }

  private async startAgain(exitedAt: number): Promise<void> {
    const server = await this.inLane(async () => {
      if (this.closed) return undefined;
      try {
        return await this.launch();
      } catch (error) {
        if (!this.closed) this.scheduleStart(`did not start (${firstLine(error)})`, exitedAt);
        return undefined;
      }
    });
    if (server === undefined) return;
    this.restarts++;
    const { name } = this.spec;
    this.options.progress(
      `server ${name} started again (pid ${server.child.process.pid}), ready ${seconds(performance.now() - exitedAt)} s after it exited`,
    );
    try {
      await this.options.balanced(name);
      this.options.progress(
        `HAProxy has server ${name} UP again, ${seconds(performance.now() - exitedAt)} s after it exited`,
      );
    } catch (error) {
      if (!this.closed && this.spawned === server.child)
        this.options.progress(`HAProxy has not taken server ${name} back: ${firstLine(error)}`);
    }
  }

  private cancelPending(): void {
    if (this.pending) clearTimeout(this.pending);
    this.pending = undefined;
  }

  private stopChild(child: Child): Promise<void> {
    this.asked.add(child);
    return child.stop('SIGTERM', this.options.stopWithinMs);
  }

  private inLane<T>(work: () => Promise<T>): Promise<T> {
    const result = this.lane.then(work, work);
    this.lane = result.catch(() => undefined);
    return result;
  }
}
