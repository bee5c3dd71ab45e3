import fc from 'fast-check';
import LinkifyIt from 'linkify-it';
import { describe, expect, it } from 'vitest';
import { inertForMail } from '../../src/mail/inertText.js';
import { digestMessage } from '../../src/mail/keyRequestMessages.js';

// A mail client's autolinker, as markdown-it's: schemes, `www.`, bare hosts of known top-level
// domains and addresses all become links. Strangers' text must give it nothing to link.
const linkify = new LinkifyIt();
const linksIn = (text: string) => (linkify.match(text) ?? []).map((match) => match.text);

describe('strangers’ text made inert for mail', () => {
  it('defangs schemes, hosts and addresses the way incident reports write them', () => {
    expect(inertForMail('see http://evil.test/phish now')).toBe('see hxxp[:]//evil[.]test/phish now');
    expect(inertForMail('HTTPS://Evil.Example.com')).toBe('hxxpS[:]//Evil[.]Example[.]com');
    expect(inertForMail('www.evil.com or evil.com, mail eve@evil.com')).toBe(
      'www[.]evil[.]com or evil[.]com, mail eve@evil[.]com',
    );
    expect(inertForMail('javascript:alert(1) mailto:eve@x.io')).toBe('javascript[:]alert(1) mailto[:]eve@x[.]io');
    expect(inertForMail('evil。com and evil．com')).toBe('evil[.]com and evil[.]com');
    // Text without a link is left as it was.
    expect(inertForMail('Ann Reader, "Morning quotes". Thanks!')).toBe('Ann Reader, "Morning quotes". Thanks!');
  });

  it('leaves nothing an autolinker links, whatever the stranger typed', () => {
    const piece = fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.emailAddress(),
      fc.domain(),
      fc.domain().map((domain) => `www.${domain}`),
      fc.constantFrom('http://evil.test/phish', '<a href="http://evil.test">x</a>', 'ftp://a.b', 'evil。com'),
      fc.string({ unit: 'grapheme', maxLength: 30 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), fc.constantFrom(' ', '', '\n', '<', '('), (pieces, glue) => {
        expect(linksIn(inertForMail(pieces.join(glue)))).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('makes the operator’s digest inert in its text and its HTML', () => {
    const digest = digestMessage('operator@quotes.example.test', [
      {
        id: 'r_evil',
        email: 'eve@evil.test',
        name: '<b>Eve</b> http://evil.test/phish',
        application: 'www.evil.test <a href="http://evil.test">win</a>',
        plan: 'starter',
        createdAt: '2026-11-29T06:00:00Z',
        reasons: ['evil.test is a disposable-mail domain'],
      },
    ]);
    expect(linksIn(digest.text)).toEqual([]);
    expect(digest.text).toContain('<b>Eve</b> hxxp[:]//evil[.]test/phish <eve@evil[.]test>');
    expect(digest.html).not.toMatch(/<a |<b>/);
    expect(linksIn(digest.html!.replace(/<[^>]+>/g, ' '))).toEqual([]);
  });
});
