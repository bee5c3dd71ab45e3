import { describe, expect, it } from 'vitest';
import { graceAfterRoll } from '../../src/domain/rollGrace.js';

const now = new Date('2026-11-27T10:10:00Z');
const hourMs = 3_600_000;

describe('the grace a roll leaves (decision 0049)', () => {
  it('starts the grace chosen when none runs, or none for "at once"', () => {
    expect(graceAfterRoll(null, now, 0)).toEqual({ keep: 'none' });
    expect(graceAfterRoll(null, now, hourMs)).toEqual({ keep: 'current', until: new Date('2026-11-27T11:10:00Z') });
    // A grace that ended is no grace.
    expect(graceAfterRoll(new Date('2026-11-27T10:10:00Z'), now, 24 * hourMs)).toEqual({
      keep: 'current',
      until: new Date('2026-11-28T10:10:00Z'),
    });
  });

  it('never shortens a running grace: "at once" keeps it, a grace is refused in words', () => {
    const running = new Date('2026-11-27T11:00:00Z');
    expect(graceAfterRoll(running, now, 0)).toEqual({ keep: 'previous', until: running });
    expect(graceAfterRoll(running, now, 24 * hourMs)).toEqual({
      refused:
        'the secret before this one still works until 2026-11-27T11:00:00Z (its grace); a roll with a grace now would keep three secrets working. Roll at once (that earlier secret still ends at 2026-11-27T11:00:00Z), or roll with a grace after 2026-11-27T11:00:00Z',
    });
  });
});
