import { describe, expect, it } from 'vitest';
import { quotePageBody } from '../../src/domain/responseBodies.js';

const item = (id: string, text: string) => Buffer.from(JSON.stringify({ id, text }));

describe('a page body', () => {
  it('joins the stored items with commas and ends with the page numbers, byte for byte', () => {
    const items = [item('q_a', 'Plain.'), item('q_b', 'Café — “quoted” 🌱'), item('q_c', '')];
    const body = quotePageBody(items, { total: 1234, limit: 3, offset: 9, has_more: true });
    const expected = `{"quotes":[${items.map(String).join(',')}],"total":1234,"limit":3,"offset":9,"has_more":true}`;
    expect(body.toString('utf8')).toBe(expected);
    expect(body.length).toBe(Buffer.byteLength(expected));
  });

  it('writes an empty page and a page of one', () => {
    expect(quotePageBody([], { total: 0, limit: 20, offset: 0, has_more: false }).toString()).toBe(
      '{"quotes":[],"total":0,"limit":20,"offset":0,"has_more":false}',
    );
    const one = quotePageBody([item('q_a', 'x')], { total: 1, limit: 20, offset: 0, has_more: false });
    expect(JSON.parse(one.toString())).toEqual({
      quotes: [{ id: 'q_a', text: 'x' }],
      total: 1,
      limit: 20,
      offset: 0,
      has_more: false,
    });
  });
});
