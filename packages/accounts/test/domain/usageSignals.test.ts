import { describe, expect, it } from 'vitest';
import { pageSighting, parsePageSighting } from '../../src/domain/callSightings.js';
import {
  coverageSignals,
  defaultSignalThresholds,
  type Sighting,
  sharingSignals,
  sweepSignals,
  type Trial,
  trialRotationSignals,
} from '../../src/domain/usageSignals.js';

const page = (keyId: string, value: string, day = '2026-11-02'): Sighting => ({ keyId, day, kind: 'page', value });

describe('what a call is seen with', () => {
  it('writes a page as its filters in a fixed order, offset and limit, and reads it back', () => {
    const value = pageSighting({ mood: 'Hopeful', category: 'grief' }, { offset: 200, limit: 100 });
    expect(value).toBe('category=grief&mood=hopeful|200|100');
    expect(parsePageSighting(value)).toEqual({ filters: 'category=grief&mood=hopeful', offset: 200, limit: 100 });
  });
});

describe('signs of broken terms', () => {
  const thresholds = { ...defaultSignalThresholds, sweepPages: 5 };

  it('a sweep is the longest run of consecutive pages of one filter and page size, in any order seen', () => {
    const walked = [3, 0, 2, 1, 4].map((n) => page('k_walk', `category=a|${n * 10}|10`));
    const gappy = [0, 1, 2, 4, 5, 6, 8].map((n) => page('k_gaps', `category=a|${n * 10}|10`));
    const mixedSizes = [0, 1, 2].map((n) => page('k_mixed', `category=a|${n * 10}|10`));
    mixedSizes.push(...[3, 4].map((n) => page('k_mixed', `category=a|${n * 10}|20`)));
    const signals = sweepSignals([...walked, ...gappy, ...mixedSizes], thresholds);
    expect(signals.map((signal) => signal.subject)).toEqual(['k_walk']);
    expect(signals[0]!.figures).toMatchObject({ pages: 5, fromOffset: 0, toOffset: 40, quotes: 50 });
  });

  it('sharing counts networks and origins within one day', () => {
    const sightings: Sighting[] = [];
    for (let n = 0; n < 5; n++)
      sightings.push({ keyId: 'k_spread', day: `2026-11-0${n + 1}`, kind: 'network', value: `10.0.${n}.0/24` });
    for (let n = 0; n < 4; n++)
      sightings.push({ keyId: 'k_origins', day: '2026-11-03', kind: 'origin', value: `https://site${n}.example` });
    const signals = sharingSignals(sightings, defaultSignalThresholds);
    // Five networks over five days is a moving laptop, not a shared key.
    expect(signals.map((signal) => signal.subject)).toEqual(['k_origins']);
    expect(signals[0]!.figures).toMatchObject({ day: '2026-11-03', networks: 0, origins: 4 });
  });

  it('sharing names each network once and leaves out the origins the key allows, from one network', () => {
    const day = '2026-11-04';
    const seen = (keyId: string, kind: Sighting['kind'], value: string): Sighting => ({ keyId, day, kind, value });
    const ports = [3000, 3001, 5173, 8080].map((port) => `http://localhost:${port}`);
    const sightings = ['k_dev', 'k_other'].flatMap((keyId) => [
      seen(keyId, 'network', '127.0.0.0/24'),
      seen(keyId, 'network', '127.0.0.0/24'),
      ...ports.map((origin) => seen(keyId, 'origin', origin)),
    ]);
    const allowed = (keyId: string) => (keyId === 'k_dev' ? ['http://localhost:*'] : []);
    const signals = sharingSignals(sightings, defaultSignalThresholds, allowed);
    expect(signals.map((signal) => signal.subject)).toEqual(['k_other']);
    expect(signals[0]!.evidence).toBe(
      'on 2026-11-04 used from 1 network (127.0.0.0/24) and 4 browser origins (http://localhost:3000, http://localhost:3001, http://localhost:5173, http://localhost:8080); thresholds 5 networks or 4 origins a day',
    );
  });

  it('trial rotation needs enough trials from one network created within the window, one finding per network', () => {
    const day = 86_400_000;
    const at = (days: number) => new Date(Date.UTC(2026, 10, 1) + days * day);
    const key = (id: string, days: number): Trial => ({ id, kind: 'key', createdAt: at(days) });
    const trials = [key('k_t1', 0), key('k_t2', 10), key('k_t3', 45), key('k_t4', 50)];
    const seen = (ids: readonly string[], network = '10.9.9.0/24') =>
      ids.map((id): Sighting => ({ keyId: id, day: '2026-11-20', kind: 'network', value: network }));
    expect(trialRotationSignals(seen(trials.map((t) => t.id)), trials, defaultSignalThresholds)).toEqual([]);
    const more = [...trials, key('k_t5', 55)];
    const signals = trialRotationSignals(seen(more.map((t) => t.id)), more, defaultSignalThresholds);
    expect(signals).toHaveLength(1);
    expect(signals[0]).toMatchObject({
      subject: '10.9.9.0/24',
      signal: 'trial-rotation',
      involves: { keys: ['k_t3', 'k_t4', 'k_t5'], requests: [] },
      figures: { network: '10.9.9.0/24', trials: 3, keys: 3, requests: 0 },
    });
  });

  it('nine trials from one network are one finding naming all nine, keys and requests apart', () => {
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 3) + minutes * 60_000);
    const trials: Trial[] = [
      ...[1, 2, 3, 4, 5, 6].map((n): Trial => ({ id: `k_n${n}`, kind: 'key', createdAt: at(n) })),
      ...[7, 8, 9].map((n): Trial => ({ id: `r_n${n}`, kind: 'request', createdAt: at(n) })),
    ];
    const sightings = trials.map(
      (trial): Sighting => ({ keyId: trial.id, day: '2026-11-03', kind: 'network', value: '10.7.7.0/24' }),
    );
    const signals = trialRotationSignals(sightings, trials, defaultSignalThresholds);
    expect(signals).toHaveLength(1);
    expect(signals[0]!.involves).toEqual({
      keys: ['k_n1', 'k_n2', 'k_n3', 'k_n4', 'k_n5', 'k_n6'],
      requests: ['r_n7', 'r_n8', 'r_n9'],
    });
    expect(signals[0]!.evidence).toMatch(/^9 trials \(3 of them confirmed requests not yet keys\)/);
  });

  it('coverage names a key served at least the share of the corpus, with its figures and calls', () => {
    const coverage = [
      { keyId: 'k_harvest', quotes: 41_200 },
      { keyId: 'k_busy', quotes: 42_000 },
      { keyId: 'k_app', quotes: 4_000 },
    ];
    const calls = new Map([
      ['k_harvest', 824],
      ['k_busy', 50_000],
    ]);
    const thresholds = { ...defaultSignalThresholds, coveragePercent: 27 };
    const signals = coverageSignals(coverage, 152_000, calls, thresholds);
    expect(signals.map((signal) => signal.subject)).toEqual(['k_harvest', 'k_busy']);
    expect(signals[0]).toEqual({
      subject: 'k_harvest',
      signal: 'coverage',
      involves: { keys: ['k_harvest'], requests: [] },
      evidence: 'served 41,200 distinct quotes, 27% of the 152,000 in the corpus, in 824 counted calls; threshold 27%',
      figures: { quotes: 41_200, corpus: 152_000, percent: 27, calls: 824 },
    });
    // The default leaves a professional key's whole allowance of random draws alone (28% at most).
    expect(coverageSignals(coverage, 152_000, calls, defaultSignalThresholds)).toEqual([]);
    expect(coverageSignals(coverage, 0, calls, thresholds)).toEqual([]);
  });
});
