import { pgBouncerTool } from '../../src/debianTool.js';
import { type PgBouncer, type PgBouncerOptions, startPgBouncer as start } from '../../src/pgBouncer.js';
import { debianToolForTests } from './debianTool.js';

export type { PgBouncer };

const found = debianToolForTests(pgBouncerTool, 'the PgBouncer tests');

/** Why the PgBouncer tests are skipped here, or undefined when it is installed. */
export const pgBouncerSkipReason: string | undefined = 'skipReason' in found ? found.skipReason : undefined;

export function startPgBouncer(options: Omit<PgBouncerOptions, 'program'>): Promise<PgBouncer> {
  if (!('path' in found)) throw new Error(found.skipReason);
  return start({ ...options, program: found.path });
}
