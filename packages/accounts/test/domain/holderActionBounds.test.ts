import { describe, expect, it } from 'vitest';
import {
  actionWindows,
  boundReachedWords,
  holderActionBounds,
  secondsLeftIn,
} from '../../src/domain/holderActionBounds.js';

describe("the bounds of a holder's changes", () => {
  it('names each window the instant falls in: the UTC hour and the UTC day, key bounds before holder bounds', () => {
    const now = new Date('2026-11-27T10:20:30Z');
    expect(
      actionWindows('roll', now).map((window) => [
        window.bound.scope,
        window.windowSeconds,
        window.start.toISOString(),
        window.end.toISOString(),
      ]),
    ).toEqual([
      ['key', 3600, '2026-11-27T10:00:00.000Z', '2026-11-27T11:00:00.000Z'],
      ['key', 86_400, '2026-11-27T00:00:00.000Z', '2026-11-28T00:00:00.000Z'],
      ['holder', 3600, '2026-11-27T10:00:00.000Z', '2026-11-27T11:00:00.000Z'],
    ]);
    for (const bounds of Object.values(holderActionBounds)) {
      const scopes = bounds.map((bound) => bound.scope);
      expect(scopes).toEqual([...scopes].sort((a, b) => (a === b ? 0 : a === 'key' ? -1 : 1)));
      // Every bound leaves room: the upsert's insert branch (a first place) needs no check of its own.
      for (const bound of bounds) expect(bound.atMost).toBeGreaterThanOrEqual(3);
    }
  });

  it('says which bound was met and when a place frees, to the second for Retry-After', () => {
    const now = new Date('2026-11-27T10:59:59.200Z');
    const [hour, day] = actionWindows('origins', now);
    expect(secondsLeftIn(hour!, now)).toBe(1);
    expect(boundReachedWords('origins', hour!, now)).toBe(
      'Too many saves of the allowed origins of this key: at most 10 an hour. Try again after 11:00 UTC (in 1 minute).',
    );
    expect(secondsLeftIn(day!, now)).toBe(46_801);
    expect(boundReachedWords('origins', day!, now)).toBe(
      'Too many saves of the allowed origins of this key: at most 30 a day. Try again after 2026-11-28 00:00 UTC (in 14 hours).',
    );
    const holder = actionWindows('allowance-mails', now)[2]!;
    expect(boundReachedWords('allowance-mails', holder, now)).toBe(
      'Too many changes to the allowance mails of your keys: at most 20 an hour. Try again after 11:00 UTC (in 1 minute).',
    );
  });
});
