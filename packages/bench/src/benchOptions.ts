import { parseArgs } from 'node:util';
import { historyMemoryDefaults } from './historyMemory.js';
import { sampleIntervalMs } from './loadWorkerMessages.js';

/** The single-URL scenarios' ids (scenarios.ts) and the mixed one's, in the order they run. */
export const scenarioIds = ['mixed', 'random', 'random-filtered', 'filter-3', 'filter-deep', 'categories', 'usage'];

/** The steps of a corpus size's run, in the order they run (main.ts); each one's peak RSS is reported. */
export const phaseIds = ['cold', 'throughput', 'journal', 'routes', 'bystander', 'counted', 'reload'] as const;
export type PhaseId = (typeof phaseIds)[number];

/** How a ratio is measured: both sides at once on a core each (the default), or one after the other. */
export const methods = ['duet', 'alternating'] as const;
export type Method = (typeof methods)[number];

/** Phases only the long variant runs: each costs minutes (servers behind HAProxy; a second corpus load per size). */
const longPhases: readonly PhaseId[] = ['routes', 'reload'];

/**
 * What a run measures unless told otherwise. The default run (a duet, within 20 minutes) leaves
 * out the routes, the reload and the Prism mock; `--long` adds them, with longer and more rounds.
 * The alternating method keeps its own defaults (3 rounds of 5 s, floor runs around each).
 */
export function runDefaults(method: Method, long: boolean) {
  const phases = phaseIds.filter((id) => long || !longPhases.includes(id));
  if (method === 'alternating') return { rounds: 3, durationSeconds: 5, phases, mock: true };
  return long
    ? { rounds: 4, durationSeconds: 10, phases, mock: true }
    : { rounds: 4, durationSeconds: 8, phases, mock: false };
}

export interface BenchOptions {
  method: Method;
  /** The long variant: the routes and the mock too, and longer rounds (runDefaults). */
  long: boolean;
  /** The Prism mock measured after each single URL's rounds (a reference). */
  mock: boolean;
  sizes: number[];
  /** Seconds of measured load per run; a scenario has `rounds` of them per target. */
  durationSeconds: number;
  /** Seconds of load before each measured run, in the same load generator process. */
  warmupSeconds: number;
  rounds: number;
  connections: number;
  seed: number;
  mixedUrls: number;
  coldCalls: number;
  countedCalls: number;
  /** Ordinary active keys the usage history's memory is measured over, and its rounds (historyMemory.ts). */
  historyKeys: number;
  historyRounds: number;
  /** The scenarios measured against the floor and the mock (all by default). */
  scenarios: Set<string>;
  /** The scenarios measured over every route (one key, history off, through HAProxy). */
  routeScenarios: Set<string>;
  /** The steps run (all by default); a run of some writes results the READMEs do not quote. */
  phases: Set<PhaseId>;
  serverNodeOptions: string[];
  out: string;
  /** Where the bench's own PostgreSQL keeps generated corpora between runs (keptCorpora.ts); unused with DATABASE_URL. */
  corpora: string;
}

/** A bad option: the bench prints its message as one line and exits with 2. */
export class OptionError extends Error {}

function positiveInteger(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0)
    throw new OptionError(`--${name} must be a positive whole number, got "${text}"`);
  return value;
}

function seconds(name: string, text: string | undefined, least: number): number {
  const value = Number(text);
  if (text === undefined || text.trim() === '' || !Number.isFinite(value) || value < least)
    throw new OptionError(`--${name} must be a number of seconds, ${least} or more, got "${text}"`);
  return value;
}

function ids(name: string, text: string | undefined, allowed: readonly string[]): Set<string> {
  const list = (text ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  const unknown = list.filter((id) => !allowed.includes(id));
  if (list.length === 0 || unknown.length > 0)
    throw new OptionError(`--${name} takes ids among ${allowed.join(', ')}; got "${text}"`);
  return new Set(list);
}

function parseCommandLine(args: string[], defaultOut: string) {
  try {
    return parseArgs({
      args,
      options: {
        method: { type: 'string', default: 'duet' },
        long: { type: 'boolean', default: false },
        sizes: { type: 'string', default: '150000,1500000' },
        duration: { type: 'string' },
        warmup: { type: 'string', default: '2' },
        rounds: { type: 'string' },
        connections: { type: 'string', default: '64' },
        seed: { type: 'string', default: '20261123' },
        'mixed-urls': { type: 'string', default: '2000' },
        'cold-calls': { type: 'string', default: '2000' },
        'counted-calls': { type: 'string', default: '45000' },
        'history-keys': { type: 'string', default: String(historyMemoryDefaults.ordinaryKeys) },
        'history-rounds': { type: 'string', default: String(historyMemoryDefaults.rounds) },
        scenarios: { type: 'string', default: scenarioIds.join(',') },
        'route-scenarios': { type: 'string', default: 'random,categories' },
        phases: { type: 'string' },
        'server-node-options': { type: 'string', default: '' },
        out: { type: 'string', default: defaultOut },
        corpora: { type: 'string' },
      },
    });
  } catch (error) {
    throw new OptionError(error instanceof Error ? error.message : String(error));
  }
}

/** The bench's command line, checked: a bad value throws an OptionError naming the option. */
export function parseBenchOptions(args: string[], defaultOut: string, defaultCorpora = ''): BenchOptions {
  const { values } = parseCommandLine(args, defaultOut);
  const method = values.method as Method;
  if (!methods.includes(method))
    throw new OptionError(`--method takes one of ${methods.join(', ')}; got "${values.method}"`);
  const long = values.long === true;
  const defaults = runDefaults(method, long);
  return {
    method,
    long,
    mock: defaults.mock,
    sizes: (values.sizes ?? '').split(',').map((size) => positiveInteger('sizes', size.trim())),
    // A run lasts at least one of the load generator's sample intervals.
    durationSeconds: seconds('duration', values.duration ?? String(defaults.durationSeconds), sampleIntervalMs / 1000),
    warmupSeconds: seconds('warmup', values.warmup, 0),
    rounds: positiveInteger('rounds', values.rounds ?? String(defaults.rounds)),
    connections: positiveInteger('connections', values.connections),
    seed: positiveInteger('seed', values.seed),
    mixedUrls: positiveInteger('mixed-urls', values['mixed-urls']),
    coldCalls: positiveInteger('cold-calls', values['cold-calls']),
    countedCalls: positiveInteger('counted-calls', values['counted-calls']),
    historyKeys: positiveInteger('history-keys', values['history-keys']),
    historyRounds: positiveInteger('history-rounds', values['history-rounds']),
    scenarios: ids('scenarios', values.scenarios, scenarioIds),
    routeScenarios: ids(
      'route-scenarios',
      values['route-scenarios'],
      scenarioIds.filter((id) => id !== 'mixed'),
    ),
    phases: ids('phases', values.phases ?? defaults.phases.join(','), phaseIds) as Set<PhaseId>,
    // More, for a look inside (`--cpu-prof --cpu-prof-dir=DIR` profiles every server process the bench starts).
    serverNodeOptions: (values['server-node-options'] ?? '').split(/\s+/).filter((option) => option !== ''),
    out: values.out ?? defaultOut,
    corpora: values.corpora ?? defaultCorpora,
  };
}
