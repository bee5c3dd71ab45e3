import { createRequire } from 'node:module';
import { type Child, startChild, waitUntilReady } from './childProcess.js';
import { startScript } from './startScript.js';

/** One server of the cluster: `npm start`'s program on ports of its own. */
export interface ServerSpec {
  /** HAProxy's name for it: s1, s2, ... */
  readonly name: string;
  readonly port: number;
  readonly metricsPort: number;
}

export interface ServerProcess extends ServerSpec {
  readonly url: string;
  readonly metricsUrl: string;
  readonly child: Child;
}

const started = startScript();

/** The server's built entry point, as `npm start` runs it. */
function serverCommand(): string[] {
  return [...started.nodeFlags, createRequire(import.meta.url).resolve('@quotes/server/main')];
}

async function ready(url: string): Promise<boolean> {
  const answer = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await answer.body?.cancel();
  return answer.status === 200;
}

/** Starts a server with `env` (the database, the drain, ...) and waits until its /readyz answers 200. */
export async function startServerProcess(
  spec: ServerSpec,
  env: Record<string, string>,
  options: {
    logPath?: string;
    readyWithinMs?: number;
    /** Receives the process as soon as it is spawned, before it is ready (to stop a start midway). */
    onSpawn?: (child: Child) => void;
  } = {},
): Promise<ServerProcess> {
  const child = startChild(process.execPath, serverCommand(), {
    env: {
      ...process.env,
      ...started.env,
      ...env,
      PORT: String(spec.port),
      HOST: '127.0.0.1',
      METRICS_PORT: String(spec.metricsPort),
      LOG_FORMAT: 'json',
    },
    logPath: options.logPath,
  });
  options.onSpawn?.(child);
  const url = `http://127.0.0.1:${spec.port}`;
  try {
    await waitUntilReady(`server ${spec.name}`, child, () => ready(`${url}/readyz`), options.readyWithinMs ?? 60_000);
  } catch (error) {
    await child.stop('SIGKILL');
    throw error;
  }
  return { ...spec, url, metricsUrl: `http://127.0.0.1:${spec.metricsPort}/metrics`, child };
}
