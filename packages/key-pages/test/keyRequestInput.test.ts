import { beforeAll, describe, expect, it } from 'vitest';
import { type BodyValidator, keyRequestValidator } from '../src/keyRequestInput.js';

// The form's input as the contract's schema checks it; the flow through the service that hosts
// these pages (mail, confirmation, the key it grants) is tested in @quotes/server.
let validate: BodyValidator;
beforeAll(async () => {
  validate = await keyRequestValidator();
});

const complete = {
  email: 'ann@example.com',
  name: 'Ann',
  application: 'Quote of the day',
  use: 'A daily quote on our intranet',
  accept_terms: 'on',
};

describe('a key request body', () => {
  it('is accepted whole, trimmed, as a trial unless a plan is named', () => {
    const checked = validate({ ...complete, name: '  Ann  ' });
    expect(checked).toEqual({
      input: {
        email: 'ann@example.com',
        name: 'Ann',
        application: 'Quote of the day',
        plan: 'trial',
        use: 'A daily quote on our intranet',
        honeypot: false,
      },
    });
  });

  it('names every field it refuses', () => {
    const checked = validate({ name: 'Ann', email: 'not an address' });
    expect('errors' in checked).toBe(true);
    const named = 'errors' in checked ? checked.errors.map((error) => error.parameter).sort() : [];
    expect(named).toEqual(expect.arrayContaining(['accept_terms', 'application', 'email']));
  });

  it('refuses what is not an object', () => {
    for (const body of [null, 'email=a', [complete]]) expect(validate(body)).toHaveProperty('errors');
  });

  it('marks a filled honeypot', () => {
    expect(validate({ ...complete, homepage: 'http://spam.example' })).toMatchObject({ input: { honeypot: true } });
  });
});
