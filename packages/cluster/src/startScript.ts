import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** How `npm start` runs the server: the environment and node flags of the package's start script. */
export interface StartScript {
  readonly env: Readonly<Record<string, string>>;
  readonly nodeFlags: readonly string[];
}

/**
 * The server package's start script, read rather than repeated, so the cluster and the bench run
 * servers exactly as `npm start` does: `NAME=value` words before `node` are its environment,
 * `--flags` after it node's options.
 */
export function startScript(): StartScript {
  const manifest = JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve('@quotes/server/package.json'), 'utf8'),
  ) as {
    scripts: { start: string };
  };
  const words = manifest.scripts.start.split(/\s+/);
  const node = words.indexOf('node');
  const env: Record<string, string> = {};
  for (const word of words.slice(0, node)) {
    const [name, value] = word.split('=', 2);
    if (name && value !== undefined) env[name] = value;
  }
  return { env, nodeFlags: words.slice(node + 1).filter((word) => word.startsWith('--')) };
}
