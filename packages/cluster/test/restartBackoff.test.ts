import { describe, expect, it } from 'vitest';
import { restartDelayMs } from '../src/restartBackoff.js';

describe('the wait before a server that exited unasked is started again', () => {
  it('is 1 s at first, then doubles with each quick exit in a row, to 30 s at most', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 100].map(restartDelayMs)).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });
});
