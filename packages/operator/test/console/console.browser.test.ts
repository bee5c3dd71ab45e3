import http from 'node:http';
import { browserSkipReason, launchChromium, offlineContext } from '@quotes/docs/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { type AdminCli, buildAdminCli, expectOneLineError } from '../support/adminProcess.js';
import { type ConsoleProcess, startConsoleProcess } from '../support/consoleProcess.js';
import { type ConsoleTraffic, markupClient, sendConsoleTraffic } from '../support/consoleTraffic.js';
import { loadFixtureCorpus } from '@quotes/server/testing';
import { startTestServer, type TestServer, untilStatus } from '@quotes/server/testing';

/** The status of GET / sent to `url` with another Host header (fetch would not send it). */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${url}/`, { headers: { Host: host }, timeout: 5000 }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 5 s')));
    request.on('error', reject);
  });
}

// The operator console as an operator meets it: `quotes-admin console` started as its own
// process, its printed link opened in Chromium with the network cut off, beside a real server on
// the same database that takes real traffic and must refuse what the console revokes.
describe.skipIf(browserSkipReason !== undefined)('the operator console in Chromium', { timeout: 60_000 }, () => {
  let database: TestDatabase;
  let server: TestServer;
  let cli: AdminCli;
  let console_: ConsoleProcess;
  let browser: Browser;
  let page: Page;
  let traffic: ConsoleTraffic;
  const offHost: string[] = [];
  const pageErrors: string[] = [];
  const dialogs: string[] = [];

  beforeAll(async () => {
    [database, cli, browser] = await Promise.all([createTestDatabase(), buildAdminCli(), launchChromium()]);
    await loadFixtureCorpus(database);
    server = await startTestServer(database);
    traffic = await sendConsoleTraffic(server);
    // A day three days ago when refusals outnumbered the served calls: the chart must hold both.
    const day = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - 3));
    await database.db
      .insertInto('usage_history')
      .values([
        { key_id: traffic.reader.id, span: 'hour', period_start: day, outcome: 'served', calls: 2 },
        { key_id: traffic.reader.id, span: 'hour', period_start: day, outcome: 'rate-limited', calls: 40 },
      ])
      .execute();
    console_ = await startConsoleProcess({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
    page = await (await offlineContext(browser, { width: 1280, height: 900 }, offHost)).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  });

  afterAll(async () => {
    await browser?.close();
    if (console_?.child.exitCode === null) console_.child.kill('SIGKILL');
    await server?.close();
    await database?.drop();
  });

  it('signs in with the printed URL, and the overview draws the day’s calls as a chart, offline', async () => {
    expect(console_.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const signIn = await page.goto(console_.signInUrl);
    expect(signIn!.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Overview');
    const cookie = (await page.context().cookies()).find((entry) => entry.name === 'quotes_console')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie.expires).toBeGreaterThan(Date.now() / 1000);

    const chart = page.locator('figure[data-chart="calls-30"][data-drawn="true"]');
    await chart.waitFor({ timeout: 10_000 });
    expect(Number(await chart.getAttribute('data-points'))).toBe(2);
    // The served bar is on the canvas: pixels of its colour (#0077cc).
    const barPixels = await chart.locator('canvas').evaluate((canvas) => {
      const element = canvas as unknown as {
        width: number;
        height: number;
        getContext(kind: '2d'): {
          getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
        };
      };
      const { data } = element.getContext('2d').getImageData(0, 0, element.width, element.height);
      let count = 0;
      for (let index = 0; index < data.length; index += 4)
        if (
          Math.abs(data[index]! - 0) < 40 &&
          Math.abs(data[index + 1]! - 119) < 40 &&
          Math.abs(data[index + 2]! - 204) < 40
        )
          count++;
      return count;
    });
    expect(barPixels).toBeGreaterThan(20);
    // The figures behind it: today's served calls, as sent.
    const today = new Date().toISOString().slice(0, 10);
    const row = chart.locator('details tbody tr', { hasText: today });
    expect(await row.locator('td').nth(1).textContent()).toBe(String(traffic.served));
    // Every series inside the plot: its scale reaches the 40 refusals of three days ago.
    expect(Number(await chart.getAttribute('data-top'))).toBeGreaterThanOrEqual(40);
    // The legend says each series' total before anyone hovers: today's and the 2 served and 40 refused of three days ago.
    const refusedToday = Number(await row.locator('td').nth(2).textContent());
    expect(await chart.locator('.u-legend .u-value').allTextContents()).toEqual([
      'last 30 days',
      `${traffic.served + 2} in all`,
      `${refusedToday + 40} in all`,
    ]);
    // Reasons in the holder page's words, from the same table.
    const reasons = await page.locator('section', { hasText: 'Refusals by reason' }).innerText();
    expect(reasons).toContain('Origin not allowed for this key (origin-not-allowed)');
    expect(reasons).toContain('Too many calls at once (rate-limited)');
    expect(offHost).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('shows a client named as markup as text, inert', async () => {
    await page.goto(`${console_.url}/keys?client=${encodeURIComponent('onerror')}`);
    const cell = page.locator('td', { hasText: markupClient });
    expect(await cell.innerText()).toBe(markupClient);
    expect(await page.locator('main img').count()).toBe(0);
    await page.goto(`${console_.url}/keys/${traffic.markup.id}`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(`Key ${traffic.markup.id}`);
    expect(await page.locator('main').innerText()).toContain(markupClient);
    expect(await page.locator('main img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('finds a key by e-mail, revokes it through the confirm step, and a running server refuses it within a second', async () => {
    expect((await server.call('/v1/quotes-usage', { key: traffic.reader.key })).status).toBe(200);
    await page.goto(`${console_.url}/keys`);
    await page.getByLabel('E-mail contains').fill('reader@example');
    await page.getByRole('button', { name: 'Search' }).click();
    expect(await page.locator('main').innerText()).toContain('1 key matches');
    await page.getByRole('link', { name: traffic.reader.id }).click();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(`Key ${traffic.reader.id}`);
    // No page shows a secret: only its displayed prefix.
    expect(await page.content()).not.toContain(traffic.reader.key);

    const revoke = page.locator('form.action', { hasText: 'Revoke' });
    await revoke.getByLabel('Category').selectOption('terms-shared-key');
    await revoke.getByLabel('Reason').fill('published in a public repository');
    await revoke.getByRole('button', { name: 'Revoke...' }).click();
    expect(await page.locator('.confirm').innerText()).toContain(`Revoke ${traffic.reader.id}`);
    // Nothing has changed before the confirmation.
    expect((await server.call('/v1/quotes-usage', { key: traffic.reader.key })).status).toBe(200);
    await page.getByRole('button', { name: 'Confirm: revoke' }).click();
    const refusedAfter = await untilStatus(server, traffic.reader.key, 403, 1000);
    expect(refusedAfter).toBeLessThan(1000);
    expect(await page.getByRole('status').innerText()).toContain('Revoked');

    const listed = await cli.run({ DATABASE_URL: database.url }, 'audit', 'list', '--key', traffic.reader.id, '--json');
    expect(listed.code, listed.stderr).toBe(0);
    const revocation = (JSON.parse(listed.stdout) as { action: string; actor: string; reason: string }[]).find(
      (entry) => entry.action === 'keys revoke',
    );
    expect(revocation?.actor).toMatch(/^console:[0-9a-f]{8}$/);
    expect(revocation?.reason).toBe('published in a public repository');
    // The key's page names the session that revoked it, in a sentence.
    expect(await page.locator('main').innerText()).toContain(
      `The operator (console session ${revocation!.actor.slice('console:'.length)}) revoked key ${traffic.reader.id} (Reader App) (category: terms-shared-key). Reason: “published in a public repository”.`,
    );
  });

  it('lists the audit newest first, shows the corpus, and names a bad query parameter', async () => {
    await page.goto(`${console_.url}/audit`);
    const first = page.locator('main tbody tr').first();
    expect(await first.innerText()).toMatch(/The operator \(console session [0-9a-f]{8}\) revoked key k_\w+ \(/);
    await page.goto(`${console_.url}/corpus`);
    expect(await page.locator('.facts').innerText()).toMatch(/quotes\s+430/);
    expect(pageErrors).toEqual([]);
    // Chromium reports the 400 below as a console error: that one is expected.
    const bad = await page.goto(`${console_.url}/keys?state=lost&page=0`);
    expect(bad!.status()).toBe(400);
    expect(await page.getByRole('alert').innerText()).toBe(
      'state must be one of active, expired, revoked, got "lost"; page must be a whole number from 1 to 999999, got "0"',
    );
    pageErrors.length = 0;
  });

  it('refuses a POST without the session’s CSRF token', async () => {
    const answer = await page.request.post(`${console_.url}/keys/${traffic.markup.id}/actions/revoke`, {
      form: { reason: 'forged' },
      maxRedirects: 0,
    });
    expect(answer.status()).toBe(403);
    expect(await answer.text()).toContain('CSRF token');
    const wrong = await page.request.post(`${console_.url}/keys/${traffic.markup.id}/actions/revoke`, {
      form: { reason: 'forged', _csrf: 'x'.repeat(43) },
      maxRedirects: 0,
    });
    expect(wrong.status()).toBe(403);
    const oversized = await page.request.post(`${console_.url}/keys/${traffic.markup.id}/actions/revoke`, {
      form: { reason: 'x'.repeat(20_000) },
      maxRedirects: 0,
    });
    expect(oversized.status()).toBe(413);
    expect((await server.operator.showKey(traffic.markup.id)).state).toBe('active');
  });

  it('gives the sign-in page without a session, and refuses the used token', async () => {
    const stranger = await (await offlineContext(browser, { width: 1280, height: 900 }, offHost)).newPage();
    for (const path of ['/', '/keys', `/keys/${traffic.markup.id}`, '/audit', '/corpus']) {
      const answer = await stranger.goto(`${console_.url}${path}`);
      expect(answer!.status(), path).toBe(401);
    }
    expect((await stranger.request.get(`${console_.url}/assets/console-charts.js`)).status()).toBe(401);
    expect(await stranger.getByRole('heading', { level: 1 }).innerText()).toBe('Sign in');
    const again = await stranger.goto(console_.signInUrl);
    expect(again!.status()).toBe(403);
    expect(await stranger.locator('main').innerText()).toContain('already used');
    expect((await stranger.context().cookies()).some((entry) => entry.name === 'quotes_console')).toBe(false);
    // Another name for this address (DNS rebinding) is refused before anything else.
    const port = new URL(console_.url).port;
    expect(await statusWithHost(console_.url, `attacker.example:${port}`)).toBe(421);
    expect(await statusWithHost(console_.url, `localhost:${port}`)).toBe(401);
    const headers = (await stranger.goto(`${console_.url}/`))!.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
  });

  it('rolls a key through the confirm step and shows the new secret once, never the old one', async () => {
    await page.goto(`${console_.url}/keys/${traffic.markup.id}`);
    await page.locator('form.action', { hasText: 'Roll the secret' }).getByRole('button').click();
    await page.getByRole('button', { name: 'Confirm: roll the secret' }).click();
    const secret = await page.locator('code.secret').innerText();
    expect(secret).toMatch(/^qk_[A-Za-z0-9]{24}$/);
    expect(await page.content()).not.toContain(traffic.markup.key);
    expect((await server.call('/v1/quotes-usage', { key: secret })).status).toBe(200);
    await page.goto(`${console_.url}/keys/${traffic.markup.id}`);
    expect(await page.content()).not.toContain(secret);
    expect(await page.locator('main').innerText()).toContain(`${secret.slice(0, 11)}...`);
  });

  it('refuses bad flags in one line', async () => {
    const env = { DATABASE_URL: database.url };
    expectOneLineError(
      await cli.run(env, 'console', '--port', 'http'),
      /--port must be a whole number from 0 to 65535/,
    );
    expectOneLineError(await cli.run(env, 'console', '--host', 'evil.example'), /--host must be an IP address/);
  });

  it('stops cleanly on SIGTERM, and never printed a key', async () => {
    expect(await console_.stop('SIGTERM', 10_000)).toBe(0);
    const output = console_.stdout() + console_.stderr();
    expect(output).not.toContain(traffic.reader.key);
    expect(console_.stderr()).not.toContain(new URL(console_.signInUrl).searchParams.get('token'));
  });
});
