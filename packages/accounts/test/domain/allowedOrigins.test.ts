import { describe, expect, it } from 'vitest';
import { canonicalOrigin, localDevelopmentOrigins, originAllowed } from '../../src/domain/allowedOrigins.js';

describe('allowed origins', () => {
  it('are stored as browsers send Origin: lower case, default port omitted', () => {
    expect(canonicalOrigin('HTTPS://App.Example')).toEqual({ origin: 'https://app.example' });
    expect(canonicalOrigin('https://app.example:443')).toEqual({ origin: 'https://app.example' });
    expect(canonicalOrigin('http://app.example:8080')).toEqual({ origin: 'http://app.example:8080' });
    expect(canonicalOrigin('http://localhost:*')).toEqual({ origin: 'http://localhost:*' });
    expect(canonicalOrigin('http://[::1]:3000')).toEqual({ origin: 'http://[::1]:3000' });
    // As the URL parser writes them, which is what a browser sends.
    expect(canonicalOrigin('http://127.1:8080')).toEqual({ origin: 'http://127.0.0.1:8080' });
    expect(canonicalOrigin('https://bücher.example')).toEqual({ origin: 'https://xn--bcher-kva.example' });
    expect(canonicalOrigin('http://[0:0::1]:*')).toEqual({ origin: 'http://[::1]:*' });
  });

  it('refuse what is not an origin', () => {
    for (const text of [
      'app.example',
      'https://app.example/',
      'https://app.example/path',
      'ftp://x',
      '*',
      'null',
      'https://*.example',
      'http://x:0',
      'http://x:70000',
      // Hosts no browser serves a page from: the WHATWG URL rules and whole domain labels.
      'http://.',
      'http://-',
      'https://a..b',
      'http://[:::::]',
      'https://-app.example',
      'https://app-.example',
      'https://user@app.example',
      'https://app.example:8080:*',
      'https://app.example?x',
    ]) {
      expect(canonicalOrigin(text), text).toHaveProperty('error');
    }
  });

  it('match exactly, or any port for host:*', () => {
    const allowed = ['https://app.example', ...localDevelopmentOrigins];
    for (const origin of [
      'https://app.example',
      'HTTPS://APP.EXAMPLE',
      'http://localhost:5173',
      'http://localhost',
      'http://127.0.0.1:8080',
    ]) {
      expect(originAllowed(allowed, origin), origin).toBe(true);
    }
    for (const origin of [
      'http://app.example',
      'https://app.example:8443',
      'https://app.example.evil',
      'http://localhost.evil:80',
      'http://localhost:80x',
      'http://127.0.0.1:',
      'null',
      'https://localhost:5173',
    ]) {
      expect(originAllowed(allowed, origin), origin).toBe(false);
    }
    expect(originAllowed([], 'https://app.example')).toBe(false);
  });
});
