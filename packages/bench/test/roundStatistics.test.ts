import { describe, expect, it } from 'vitest';
import { floorBeside, interleavedSchedule, median, spread } from '../src/roundStatistics.js';

describe('median', () => {
  it('is the middle value of an odd count, whatever the order', () => {
    expect(median([0.9, 0.44, 0.64])).toBe(0.64);
    expect(median([5, 1, 4, 2, 3])).toBe(3);
  });

  it('is the mean of the two middle values of an even count', () => {
    expect(median([0.6, 0.2, 0.8, 0.4])).toBeCloseTo(0.5, 12);
  });

  it('leaves its input in its order', () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });

  it('refuses no values rather than answering NaN', () => {
    expect(() => median([])).toThrow(/no values/);
  });
});

describe('spread', () => {
  it('gives the median with the lowest and highest value and their count', () => {
    expect(spread([0.62, 0.71, 0.58])).toEqual({ median: 0.62, min: 0.58, max: 0.71, count: 3 });
  });

  it('is none for no values', () => {
    expect(spread([])).toBeNull();
  });
});

describe('interleavedSchedule', () => {
  const text = (targets: number, rounds: number) =>
    interleavedSchedule(targets, rounds)
      .map((run) => (run.kind === 'floor' ? 'F' : `T${run.target}`))
      .join(' ');

  it('alternates the floor and one target, beginning and ending on the floor', () => {
    expect(text(1, 3)).toBe('F T0 F T0 F T0 F');
  });

  it('runs every target once a round, in an order rotated by one each round', () => {
    expect(text(3, 3)).toBe('F T0 T1 T2 F T1 T2 T0 F T2 T0 T1 F');
  });

  it('numbers the floor runs in order and gives each target run its round and place in it', () => {
    const schedule = interleavedSchedule(2, 2);
    expect(schedule).toEqual([
      { kind: 'floor', run: 0 },
      { kind: 'target', target: 0, round: 0, position: 0 },
      { kind: 'target', target: 1, round: 0, position: 1 },
      { kind: 'floor', run: 1 },
      { kind: 'target', target: 1, round: 1, position: 0 },
      { kind: 'target', target: 0, round: 1, position: 1 },
      { kind: 'floor', run: 2 },
    ]);
  });

  it('refuses a schedule without targets or rounds', () => {
    expect(() => interleavedSchedule(0, 3)).toThrow(/at least one target/);
    expect(() => interleavedSchedule(1, 0)).toThrow(/at least one round/);
    expect(() => interleavedSchedule(1, 1.5)).toThrow(/at least one round/);
  });
});

describe('floorBeside', () => {
  it('is the mean of the floor runs around a round of one target', () => {
    expect(floorBeside([50_000, 60_000, 40_000], 0, 0, 1)).toBe(55_000);
    expect(floorBeside([50_000, 60_000, 40_000], 1, 0, 1)).toBe(50_000);
  });

  it('lies between the floor runs by the place of the target in its round', () => {
    // Three targets between floor runs of 40,000 and 80,000: at a quarter, a half, three quarters.
    expect([0, 1, 2].map((position) => floorBeside([40_000, 80_000], 0, position, 3))).toEqual([
      50_000, 60_000, 70_000,
    ]);
  });

  it('takes a drift that is linear over the runs out of every round', () => {
    // The machine slows down by 1,000 calls/s at every run; the server always answers 0.6 of what
    // the floor would at the same moment. Read against the floor run before it, it reads less.
    const targets = 3;
    const rounds = 3;
    const speedAt = (step: number) => 60_000 - 1_000 * step;
    const floorRuns: number[] = [];
    const measured: Array<{ round: number; position: number; rate: number }> = [];
    interleavedSchedule(targets, rounds).forEach((run, step) => {
      if (run.kind === 'floor') floorRuns.push(speedAt(step));
      else measured.push({ round: run.round, position: run.position, rate: 0.6 * speedAt(step) });
    });
    for (const { round, position, rate } of measured)
      expect(rate / floorBeside(floorRuns, round, position, targets)).toBeCloseTo(0.6, 12);
    const againstRunBefore = measured.map(({ round, rate }) => rate / (floorRuns[round] as number));
    expect(Math.min(...againstRunBefore)).toBeLessThan(0.59);
  });

  it('refuses a round without a floor run after it', () => {
    expect(() => floorBeside([50_000], 0, 0, 1)).toThrow(/needs floor runs 0 and 1/);
  });
});
