import { randomInt } from 'node:crypto';

/** Settings of a run that come from the environment; the only module that reads process.env. */
export interface SuiteSettings {
  /** Generated requests per property run. */
  readonly runs: number;
  /** fast-check seed; random (and printed) unless set, so a failure can be replayed. */
  readonly seed: number;
  /** fast-check replay path of a failure. */
  readonly path: string | undefined;
  /** Quotes generated into the fresh database. */
  readonly corpusSize: number;
  readonly corpusSeed: number;
  /** A PostgreSQL allowing CREATE DATABASE; unset: an embedded throwaway cluster. */
  readonly databaseUrl: string | undefined;
  /** Keys for a remote target from CONFORMANCE_KEY_<NAME> (e.g. CONFORMANCE_KEY_PLATFORM, CONFORMANCE_KEY_REVOKED). */
  readonly keys: Readonly<Record<string, string>>;
}

export const defaultRuns = 1500;
const defaultCorpusSize = 3000;

function integer(environment: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const text = environment[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${text}"`);
  return value;
}

export function readSettings(environment: NodeJS.ProcessEnv = process.env): SuiteSettings {
  const databaseUrl = environment.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL');
  return Object.freeze({
    runs: integer(environment, 'CONFORMANCE_RUNS', defaultRuns, 1, 10_000_000),
    seed: integer(environment, 'CONFORMANCE_SEED', randomInt(2 ** 31 - 1), -(2 ** 31), 2 ** 31 - 1),
    path: environment.CONFORMANCE_PATH || undefined,
    corpusSize: integer(environment, 'CONFORMANCE_CORPUS_SIZE', defaultCorpusSize, 1, 5_000_000),
    corpusSeed: integer(environment, 'CONFORMANCE_CORPUS_SEED', 20261123, 0, 2 ** 31 - 1),
    databaseUrl,
    keys: Object.freeze(
      Object.fromEntries(
        Object.entries(environment)
          .filter(([name, value]) => name.startsWith('CONFORMANCE_KEY_') && value)
          .map(([name, value]) => [name.slice('CONFORMANCE_KEY_'.length).toLowerCase(), String(value)]),
      ),
    ),
  });
}
