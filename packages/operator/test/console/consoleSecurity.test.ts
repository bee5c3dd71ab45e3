import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { html as consoleHtml } from '../../src/console/consoleHtml.js';
import { allowedHost } from '../../src/console/consoleSecurity.js';
import { ConsoleSessions, sessionIdleMs, sessionLifetimeMs } from '../../src/console/consoleSessions.js';
import { html, jsonIsland } from '@quotes/text-rules';
import { manualClock } from '@quotes/server/testing';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

describe('console sessions', () => {
  it('exchange a sign-in token for a session once, and nothing else; a token made later works too', async () => {
    const time = manualClock('2026-11-26T10:00:00Z');
    const sessions = new ConsoleSessions(database.db, time.clock);
    const token = await sessions.newSignInToken();
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(await sessions.signIn(`${token}x`)).toBeUndefined();
    expect(await sessions.signIn('')).toBeUndefined();
    const signedIn = (await sessions.signIn(token))!;
    expect(signedIn.session.label).toMatch(/^[0-9a-f]{8}$/);
    expect(sessions.find(signedIn.cookie)).toBe(signedIn.session);
    expect(await sessions.signIn(token)).toBeUndefined();
    // A second link, made after the first was used, signs in a second session beside the first.
    const second = (await sessions.signIn(await sessions.newSignInToken()))!;
    expect(second.session.label).not.toBe(signedIn.session.label);
    expect(sessions.find(signedIn.cookie)).toBe(signedIn.session);
    // The table keeps hashes only: no stored value is a usable token.
    const stored = await database.db.selectFrom('console_sign_in_links').select('token_hash').execute();
    expect(stored.map((row) => row.token_hash.toString('base64url'))).not.toContain(token);
  });

  it('refuse a link unused for 15 minutes', async () => {
    const time = manualClock('2026-11-26T10:00:00Z');
    const sessions = new ConsoleSessions(database.db, time.clock);
    const token = await sessions.newSignInToken();
    time.advance(15 * 60_000);
    expect(await sessions.signIn(token)).toBeUndefined();
  });

  it('give one session for a link opened twice at once', async () => {
    const sessions = new ConsoleSessions(database.db, manualClock('2026-11-26T10:00:00Z').clock);
    const token = await sessions.newSignInToken();
    const both = await Promise.all([sessions.signIn(token), sessions.signIn(token)]);
    expect(both.filter((signedIn) => signedIn !== undefined)).toHaveLength(1);
  });

  it('end after an idle hour or eight hours in all, and at sign-out', async () => {
    const time = manualClock('2026-11-26T10:00:00Z');
    const sessions = new ConsoleSessions(database.db, time.clock);
    const { cookie } = (await sessions.signIn(await sessions.newSignInToken()))!;
    // Used every 50 minutes, it lasts its eight hours and no longer.
    const step = 50 * 60_000;
    for (let used = step; used < sessionLifetimeMs; used += step) {
      time.advance(step);
      expect(sessions.find(cookie)).toBeDefined();
    }
    time.advance(step);
    expect(sessions.find(cookie)).toBeUndefined();

    const idle = new ConsoleSessions(database.db, time.clock);
    const second = (await idle.signIn(await idle.newSignInToken()))!;
    time.advance(sessionIdleMs);
    expect(idle.find(second.cookie)).toBeUndefined();
    const third = (await idle.signIn(await idle.newSignInToken()))!;
    idle.signOut(third.cookie);
    expect(idle.find(third.cookie)).toBeUndefined();
  });

  it('check the CSRF token of the session exactly', async () => {
    const sessions = new ConsoleSessions(database.db, manualClock('2026-11-26T10:00:00Z').clock);
    const { session } = (await sessions.signIn(await sessions.newSignInToken()))!;
    expect(ConsoleSessions.csrfMatches(session, session.csrfToken)).toBe(true);
    expect(ConsoleSessions.csrfMatches(session, session.csrfToken.slice(1))).toBe(false);
    expect(ConsoleSessions.csrfMatches(session, undefined)).toBe(false);
    expect(ConsoleSessions.csrfMatches(session, [session.csrfToken])).toBe(false);
  });
});

describe('the console’s Host check', () => {
  it('takes the bound address and, on loopback, localhost; nothing else', () => {
    const loopback = allowedHost('127.0.0.1', 4100);
    expect(loopback('127.0.0.1:4100')).toBe(true);
    expect(loopback('localhost:4100')).toBe(true);
    expect(loopback('LOCALHOST:4100')).toBe(true);
    expect(loopback('127.0.0.1:4101')).toBe(false);
    expect(loopback('attacker.example:4100')).toBe(false);
    expect(loopback('127.0.0.1')).toBe(false);
    expect(loopback(undefined)).toBe(false);
    const v6 = allowedHost('::1', 4100);
    expect(v6('[::1]:4100')).toBe(true);
    expect(v6('localhost:4100')).toBe(true);
    // Bound to every interface: any address literal, never a name (rebinding needs one).
    const everywhere = allowedHost('0.0.0.0', 4100);
    expect(everywhere('192.0.2.7:4100')).toBe(true);
    expect(everywhere('[2001:db8::1]:4100')).toBe(true);
    expect(everywhere('console.example:4100')).toBe(false);
    const lan = allowedHost('192.0.2.7', 80);
    expect(lan('192.0.2.7')).toBe(true);
    expect(lan('localhost')).toBe(false);
  });
});

describe('console HTML', () => {
  it('escapes every value put into a template, and keeps what was built as HTML', () => {
    const name = '<img src=x onerror=alert(1)>';
    expect(html`<td>${name}</td>`.text).toBe('<td>&lt;img src=x onerror=alert(1)&gt;</td>');
    expect(html`<a title="${'" onmouseover="x'}">`.text).toBe('<a title="&quot; onmouseover=&quot;x">');
    expect(html`<ul>${['<b>', html`<li>ok</li>`]}</ul>`.text).toBe('<ul>&lt;b&gt;<li>ok</li></ul>');
  });

  it('writes JSON data islands that no value can close', () => {
    const island = jsonIsland('chart', { client: '</script><script>alert(1)</script><!--', line: '\u2028' }).text;
    expect(island).not.toContain('</script><script>');
    expect(island.match(/<\/script>/g)).toHaveLength(1);
    const json = island.replace(/^<script type="application\/json" id="chart">/, '').replace(/<\/script>$/, '');
    expect(JSON.parse(json)).toEqual({ client: '</script><script>alert(1)</script><!--', line: '\u2028' });
  });

  it('shows page text as written and sends form values back as given', () => {
    const name = 'Evil\u202Ecorp<b>';
    expect(consoleHtml`<p title='${name}'>${name}</p><input value="${name}">${[name]}`.text).toBe(
      '<p title=\'Evil\u202Ecorp&lt;b&gt;\'>Evil\\u202ecorp&lt;b&gt;</p><input value="Evil\u202Ecorp&lt;b&gt;">Evil\\u202ecorp&lt;b&gt;',
    );
  });
});
