import { accessSync, constants } from 'node:fs';

/**
 * A Debian package's program the tests drive (PgBouncer, HAProxy): the path in `variable` when
 * set (CI names each, so a missing one fails the run there instead of skipping), else the
 * package's own path; else the reason to skip, also written to stderr at once.
 */
export function findDebianTool(tool: {
  name: string;
  variable: string;
  path: string;
  tests: string;
}): { path: string } | { skipReason: string } {
  const configured = process.env[tool.variable];
  if (configured) {
    accessSync(configured, constants.X_OK);
    return { path: configured };
  }
  try {
    accessSync(tool.path, constants.X_OK);
    return { path: tool.path };
  } catch {
    const skipReason = `no ${tool.name}: ${tool.path} is missing and ${tool.variable} is not set (apt-get install ${tool.name})`;
    console.warn(`SKIPPED ${tool.tests}: ${skipReason}`);
    return { skipReason };
  }
}
