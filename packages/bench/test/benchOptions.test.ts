import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { OptionError, parseBenchOptions, phaseIds, runDefaults, scenarioIds } from '../src/benchOptions.js';

const parse = (...args: string[]) => parseBenchOptions(args, '/results');

describe('the bench options', () => {
  it('default to a duet of every scenario in four rounds of 8 s after 2 s of warm-up, without the routes, the reload and the mock', () => {
    expect(parse()).toMatchObject({
      method: 'duet',
      long: false,
      mock: false,
      sizes: [150_000, 1_500_000],
      rounds: 4,
      durationSeconds: 8,
      warmupSeconds: 2,
      connections: 64,
      scenarios: new Set(scenarioIds),
      routeScenarios: new Set(['random', 'categories']),
      phases: new Set(['cold', 'throughput', 'journal', 'bystander', 'counted']),
      historyKeys: 10_000,
      historyRounds: 5,
      out: '/results',
    });
  });

  it('take a smaller usage history measurement and runs of a fraction of a second, for a short check', () => {
    expect(parse('--history-keys', '1000', '--history-rounds', '1', '--duration', '0.5')).toMatchObject({
      historyKeys: 1000,
      historyRounds: 1,
      durationSeconds: 0.5,
    });
    // Shorter than the load generator's sample interval, a run would last the interval anyway.
    expect(() => parse('--duration', '0.05')).toThrow(
      '--duration must be a number of seconds, 0.1 or more, got "0.05"',
    );
    expect(() => parse('--history-keys', '0')).toThrow('--history-keys must be a positive whole number, got "0"');
    expect(() => parse('--history-rounds', '1.5')).toThrow(
      '--history-rounds must be a positive whole number, got "1.5"',
    );
  });

  it('take the long variant one flag away: every phase and the mock, four rounds of 10 s', () => {
    expect(parse('--long')).toMatchObject({
      method: 'duet',
      long: true,
      mock: true,
      rounds: 4,
      durationSeconds: 10,
      phases: new Set(phaseIds),
    });
    // Rounds and seconds given win over the variant's.
    expect(parse('--long', '--rounds', '1', '--duration', '1')).toMatchObject({ rounds: 1, durationSeconds: 1 });
  });

  it('keep the alternating method (floor, server, floor, ...) one flag away, with its own defaults', () => {
    expect(parse('--method', 'alternating')).toMatchObject({
      method: 'alternating',
      rounds: 3,
      durationSeconds: 5,
      mock: true,
    });
    expect(runDefaults('alternating', true).phases).toEqual([...phaseIds]);
    expect(() => parse('--method', 'solo')).toThrow('--method takes one of duet, alternating; got "solo"');
  });

  it('take some phases for a look at one, and refuse an unknown one', () => {
    expect(parse('--phases', 'bystander,cold').phases).toEqual(new Set(['bystander', 'cold']));
    expect(() => parse('--phases', 'flood')).toThrow(
      /^--phases takes ids among cold, throughput, journal, routes, bystander, counted, reload; got "flood"$/,
    );
  });

  it('take a few scenarios for a short check', () => {
    expect(parse('--scenarios', 'random, categories', '--route-scenarios', 'usage').scenarios).toEqual(
      new Set(['random', 'categories']),
    );
  });

  it('refuse what would measure nothing or something unknown, naming the option', () => {
    expect(() => parse('--scenarios', 'randm')).toThrow(OptionError);
    expect(() => parse('--scenarios', 'randm')).toThrow(/^--scenarios takes ids among mixed, random, .*; got "randm"$/);
    expect(() => parse('--scenarios', '')).toThrow(/^--scenarios takes ids/);
    // The mixed traffic has no single URL to send over the routes.
    expect(() => parse('--route-scenarios', 'mixed')).toThrow(/^--route-scenarios takes ids/);
    expect(() => parse('--rounds', '0')).toThrow('--rounds must be a positive whole number, got "0"');
    expect(() => parse('--rounds', '2.5')).toThrow('--rounds must be a positive whole number, got "2.5"');
    expect(() => parse('--warmup=-1')).toThrow('--warmup must be a number of seconds, 0 or more, got "-1"');
    expect(() => parse('--warmup', 'soon')).toThrow(/^--warmup must be a number of seconds/);
    expect(() => parse('--round', '3')).toThrow(OptionError);
  });
});

describe('npm run bench with fewer rounds than its method takes', () => {
  it('will not write the results the READMEs quote, and says so in one line before starting anything', async () => {
    const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
    const run = (...args: string[]) =>
      promisify(execFile)(process.execPath, [main, ...args]).catch(
        (error: { code: number; stderr: string; stdout: string }) => error,
      );
    expect(await run('--rounds', '1')).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'bench: --rounds 1 writes results the READMEs quote, which take at least 4; give --out another folder\n',
    });
    expect(await run('--method', 'alternating', '--rounds', '2')).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'bench: --rounds 2 writes results the READMEs quote, which take at least 3; give --out another folder\n',
    });
  }, 60_000);
});
