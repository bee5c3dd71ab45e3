import { type DebianTool, findDebianTool } from '../../src/debianTool.js';

/**
 * The tool for `tests`, or the reason to skip them, also written to stderr at once (CI names
 * each tool's path, so there a missing one fails instead of skipping).
 */
export function debianToolForTests(tool: DebianTool, tests: string): { path: string } | { skipReason: string } {
  const found = findDebianTool(tool);
  if ('path' in found) return found;
  // Named but missing (CI names each tool): a failure, never a skip.
  if (process.env[tool.variable]) throw new Error(found.missing);
  console.warn(`SKIPPED ${tests}: ${found.missing}`);
  return { skipReason: found.missing };
}
