import { loadContract } from '@quotes/contract';
import { describe, expect, it } from 'vitest';
import { normaliseForIdentity, quoteId } from '../src/index.js';

describe('quoteId', () => {
  it('never changes: clients store these ids', () => {
    expect(quoteId('Grief keeps its own calendar.', 'Odalys Fenwright')).toBe('q_0a2qNGZx4zd3Y');
    expect(quoteId('La vie est brève, et l\u2019été aussi.', 'Élodie Brun')).toBe('q_0dMzkYUfXCfxy');
    expect(quoteId('Be yourself; everyone else is already taken.', 'Oscar Wilde')).toBe('q_1M81Nyo9APWqI');
  });

  it('ignores case, spacing, punctuation and compatibility forms, but not the author', () => {
    const id = quoteId('Grief keeps its own calendar.', 'Odalys Fenwright');
    expect(quoteId('  GRIEF keeps\tits   own calendar!!', 'odalys fenwright')).toBe(id);
    expect(quoteId('Ｇｒｉｅｆ keeps its own “calendar”', 'Odalys  Fenwright')).toBe(id);
    expect(quoteId('Grief keeps its own calendar.', 'Someone Else')).not.toBe(id);
    expect(normaliseForIdentity('Don\u2019t   panic — ever!')).toBe('dont panic ever');
    expect(normaliseForIdentity("Don't\npanic,\u00A0ever")).toBe('dont panic ever');
  });

  it('matches the contract\u2019s QuoteId pattern and length', () => {
    const schema = loadContract().components.schemas.QuoteId as { pattern: string; maxLength: number };
    const id = quoteId('Any text at all.', 'Any Author');
    expect(id).toMatch(new RegExp(schema.pattern));
    expect(id.length).toBeLessThanOrEqual(schema.maxLength);
    expect(id).toHaveLength(15);
  });
});
