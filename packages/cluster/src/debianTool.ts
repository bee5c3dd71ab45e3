import { accessSync, constants } from 'node:fs';

/** A Debian package's program the cluster runs (PgBouncer, HAProxy). */
export interface DebianTool {
  /** The package, also the program's name. */
  readonly name: 'haproxy' | 'pgbouncer';
  /** The environment variable naming another path (CI sets it, so a missing tool fails there). */
  readonly variable: string;
  /** Where the package installs it. */
  readonly path: string;
}

export const haproxyTool: DebianTool = { name: 'haproxy', variable: 'HAPROXY_PATH', path: '/usr/sbin/haproxy' };
export const pgBouncerTool: DebianTool = {
  name: 'pgbouncer',
  variable: 'PGBOUNCER_PATH',
  path: '/usr/sbin/pgbouncer',
};

/**
 * The program's path: the one in `variable` when set, else the package's own; else one line
 * saying what is missing and which package to install.
 */
export function findDebianTool(tool: DebianTool): { path: string } | { missing: string } {
  const configured = process.env[tool.variable];
  if (configured) {
    try {
      accessSync(configured, constants.X_OK);
      return { path: configured };
    } catch {
      return { missing: `${tool.variable}=${configured} is not an executable file (apt-get install ${tool.name})` };
    }
  }
  try {
    accessSync(tool.path, constants.X_OK);
    return { path: tool.path };
  } catch {
    return {
      missing: `no ${tool.name}: ${tool.path} is missing and ${tool.variable} is not set (apt-get install ${tool.name})`,
    };
  }
}
