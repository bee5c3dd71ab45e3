import { describe, expect, it } from 'vitest';
import {
  mergeParameterErrors,
  parameterErrorsFromSchema,
  parseQueryString,
  screenQuery,
} from '../../src/http/requestScreening.js';

const declared = new Set(['category', 'mood', 'limit']);

describe('query screening', () => {
  it('decodes + as a space and keeps every value of a repeated parameter', () => {
    const query = parseQueryString('category=Hope+%26+Optimism&mood=a&mood=b');
    expect(query.get('category')).toEqual(['Hope & Optimism']);
    expect(query.get('mood')).toEqual(['a', 'b']);
  });

  it('rejects unknown, repeated and empty parameters, naming each', () => {
    const { accepted, errors } = screenQuery(
      parseQueryString('categry=grief&mood=a&mood=b&limit=&category=love'),
      declared,
    );
    expect(accepted).toEqual({ category: 'love' });
    expect(errors.map((error) => error.parameter)).toEqual(['categry', 'mood', 'limit']);
    expect(errors[0]!.message).toContain('not a parameter');
    expect(errors[1]!.message).toContain('repeated');
    expect(errors[2]!.message).toContain('empty');
  });

  it('keeps a ParameterError within the contract even for absurd names', () => {
    const { errors } = screenQuery(parseQueryString(`${'x'.repeat(500)}=1`), declared);
    expect(errors[0]!.parameter.length).toBeLessThanOrEqual(200);
  });

  it('turns schema errors into one entry per parameter', () => {
    const errors = parameterErrorsFromSchema([
      { keyword: 'type', instancePath: '/query/limit', params: { type: 'integer' }, message: 'must be integer' },
      { keyword: 'minimum', instancePath: '/query/offset', params: { limit: 0 }, message: 'must be >= 0' },
      { keyword: 'maximum', instancePath: '/query/offset', params: { limit: 10 }, message: 'must be <= 10' },
    ]);
    expect(errors).toEqual([
      { parameter: 'limit', message: 'must be an integer' },
      { parameter: 'offset', message: 'must be at least 0; must be at most 10' },
    ]);
  });

  it('merges error lists keeping the first finding per parameter', () => {
    expect(
      mergeParameterErrors(
        [{ parameter: 'a', message: '1' }],
        [
          { parameter: 'a', message: '2' },
          { parameter: 'b', message: '3' },
        ],
      ),
    ).toEqual([
      { parameter: 'a', message: '1' },
      { parameter: 'b', message: '3' },
    ]);
  });
});
