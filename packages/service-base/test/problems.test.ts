import { loadContract, taxonomy } from '@quotes/contract';
import { describe, expect, it } from 'vitest';
import { invalidRequest, Problem, problemStatuses, problemTypeUri } from '../src/problems.js';

describe('problem types', () => {
  it("are exactly the contract's ProblemType enum", () => {
    expect(
      Object.keys(problemStatuses)
        .map((kind) => problemTypeUri(kind as never))
        .sort(),
    ).toEqual([...taxonomy.problemTypes].sort());
  });

  it("carry the statuses the contract's ProblemType description gives", () => {
    const description = String(loadContract().components.schemas.ProblemType?.description);
    const expected: Record<string, number> = {};
    for (const group of description.matchAll(/((?:`[a-z-]+`(?:,\s*)?)+)\s*\((\d{3})\)/g)) {
      for (const name of group[1]!.matchAll(/`([a-z-]+)`/g)) expected[name[1]!] = Number(group[2]);
    }
    expect(Object.keys(expected)).toHaveLength(taxonomy.problemTypes.length);
    expect(problemStatuses).toEqual(expected);
  });

  it('render as RFC 9457 bodies, naming each bad parameter on a 400', () => {
    const problem = invalidRequest([
      { parameter: 'era', message: 'must be one of A, B' },
      { parameter: 'limit', message: 'must be an integer' },
    ]);
    expect(problem.body('req-1')).toEqual({
      type: 'urn:quotes:problem:invalid-request',
      title: 'Invalid request',
      status: 400,
      detail: 'era: must be one of A, B; limit: must be an integer',
      instance: 'req-1',
      errors: [
        { parameter: 'era', message: 'must be one of A, B' },
        { parameter: 'limit', message: 'must be an integer' },
      ],
    });
    expect(new Problem('not-found', 'x').body()).not.toHaveProperty('errors');
  });
});
