import type { TestDatabase } from '@quotes/database/testing';
import { Agent, request } from 'node:http';
import fc from 'fast-check';
import { trialRequestsFrom } from '@quotes/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/startServer.js';
import { AccountClient, csrfIn } from '../../testing/accountClient.js';
import { type HolderTestServer, startHolderServer } from '../../testing/holderServer.js';
import { manualClock } from '../../testing/testServer.js';

const time = manualClock('2026-11-27T10:00:00Z');
const hourMs = 3_600_000;

// A holder's key from their page: rolled with each grace against real /v1 calls, its calls
// charted from the usage history, and every form given hostile input.
describe("a holder's key on their page", { timeout: 120_000 }, () => {
  let holders: HolderTestServer;
  let database: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    holders = await startHolderServer({ clock: time.clock });
    ({ database, server } = holders);
  });

  afterAll(() => holders?.close());

  const call = async (key: string) =>
    (await fetch(`${server.url}/v1/quotes-random`, { headers: { 'X-API-Key': key } })).status;

  const holder = (email: string, plan = 'starter') => holders.holder(email, { plan });

  const newKeyIn = (page: string) => /<p class="secret" id="new-key">(qk_[A-Za-z0-9]+)<\/p>/.exec(page)?.[1];

  it('rolls at once: the old secret answers 401 from then on, the new one 200', async () => {
    const { key, client, csrf } = await holder('roll-now@example.com');
    expect(await call(key.key)).toBe(200);
    const rolled = await client.post(`/account/keys/${key.id}/roll`, { _csrf: csrf, grace: 'at-once' });
    expect(rolled.status).toBe(200);
    expect(rolled.text).toContain('The secret it replaced is refused from now on.');
    const secret = newKeyIn(rolled.text)!;
    expect(await call(key.key)).toBe(401);
    expect(await call(secret)).toBe(200);
    // Shown once: the key page never shows it again.
    expect((await client.get(`/account/keys/${key.id}`)).text).not.toContain(secret);
  });

  it('rolls with 1 hour: the old secret answers 200 during the hour and 401 after it', async () => {
    const { key, client, csrf } = await holder('roll-hour@example.com');
    const rolled = await client.post(`/account/keys/${key.id}/roll`, { _csrf: csrf, grace: '1-hour' });
    const secret = newKeyIn(rolled.text)!;
    expect(rolled.text).toContain('The secret it replaced keeps working until 2026-11-27T');
    expect(await call(key.key)).toBe(200);
    expect(await call(secret)).toBe(200);
    time.advance(hourMs);
    expect(await call(key.key)).toBe(401);
    expect(await call(secret)).toBe(200);
    const trail = await server.operator.auditTrail({ keyId: key.id });
    expect(trail.at(-1)?.reason).toMatch(/previous secret valid until/);
  });

  it('refuses a grace it does not offer, beside the form', async () => {
    const { key, client, csrf } = await holder('roll-odd@example.com');
    const refused = await client.post(`/account/keys/${key.id}/roll`, { _csrf: csrf, grace: '7-days' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('choose when the old secret stops working');
    expect(await call(key.key)).toBe(200);
  });

  it('charts the calls by day and outcome over 30 and 90 days, with the refusals and why', async () => {
    const { key, client } = await holder('chart@example.com');
    for (let index = 0; index < 3; index++) expect(await call(key.key)).toBe(200);
    await server.operator.setAllowedOrigins(key.id, ['https://app.example']);
    const refused = await fetch(`${server.url}/v1/quotes-random`, {
      headers: { 'X-API-Key': key.key, Origin: 'https://elsewhere.example' },
    });
    expect(refused.status).toBe(403);
    await server.flushUsageHistory();
    await server.flushCounts();
    const page = (await client.get(`/account/keys/${key.id}`)).text;
    const today = time.clock().toISOString().slice(0, 10);
    // A key issued today: one chart, from its first day, not 30 or 90 days before it.
    expect(page).toContain(`Calls per day since the key was issued on ${today} (UTC)`);
    expect(page).not.toContain('last 90 days');
    // The figures as a table: today's row with 3 served and 1 refused.
    expect(page.split(`<tr><td>${today}</td><td>3</td><td>1</td></tr>`).length - 1).toBe(1);
    expect(page).toMatch(/<svg class="chart-svg"[^>]*role="img"/);
    expect(page).toContain(`${today}: served 3, refused 1`);
    expect(page).toContain('<td>Origin not allowed for this key (origin-not-allowed)</td><td>1</td>');
    expect(page).toMatch(
      /3 used, 9,997 left of 10,000, until <time[^>]*>2026-12-01T00:00:00Z<\/time>\. Resets at 00:00 UTC/,
    );
  });

  it('never answers a hostile form with a 5xx, nor leaves a row it should not', async () => {
    const { key, client, csrf } = await holder('fuzz@example.com');
    const anonymous = new AccountClient(server.url);
    const formCsrf = csrfIn((await anonymous.get('/account')).text);
    const hostileText = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.constantFrom(
        '',
        ' ',
        '\u0000',
        '\u202e',
        '<script>',
        'a'.repeat(30_000),
        '%',
        '%ZZ',
        'k_x',
        'https://x.example',
      ),
    );
    const fields = fc.dictionary(
      fc.constantFrom('_csrf', 'email', 'token', 'grace', 'origins', 'kind', 'plan', 'reason', 'confirm', 'x'),
      hostileText,
      { maxKeys: 9 },
    );
    const paths = fc.constantFrom(
      '/account/sign-in-link',
      '/account/sign-in',
      `/account/keys/${key.id}/roll`,
      `/account/keys/${key.id}/origins`,
      `/account/keys/${key.id}/requests`,
      `/account/keys/${key.id}/close`,
      '/account/keys/%ZZ/roll',
      '/account/keys/k_\u00e9/origins',
    );
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(paths, fields, fc.boolean(), fc.boolean(), async (path, given, withCsrf, raw) => {
        const who = path.startsWith('/account/keys/') ? client : anonymous;
        const body: Record<string, string> = {
          ...given,
          ...(withCsrf ? { _csrf: who === client ? csrf : formCsrf } : {}),
        };
        // Never close the key or roll it at random: the property is about the answers.
        if ('confirm' in body) delete body.confirm;
        if (path.endsWith('/roll')) body.grace = 'none of the choices';
        const form = raw
          ? Object.entries(body)
              .map(([name, value]) => `${name}=${value}`)
              .join('&')
          : body;
        const answer = await who.post(path, form);
        statuses.add(answer.status);
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
    // Refusals and a few acceptances both happened; the key is where it was, and at most one request waits for it.
    expect([...statuses].some((status) => status >= 400)).toBe(true);
    expect((await server.operator.showKey(key.id)).state).toBe('active');
    const open = await database.db
      .selectFrom('key_requests')
      .select('id')
      .where('for_key_id', '=', key.id)
      .where('status', '=', 'pending')
      .execute();
    expect(open.length).toBeLessThanOrEqual(1);
    expect(await call(key.key)).toBe(200);
  });

  it('answers a form over 24 KB with 413 in words, signed in or not, and reads it whole: the connection serves the next form', async () => {
    const { key, client, csrf } = await holder('big-form@example.com');
    const anonymous = new AccountClient(server.url);
    const formCsrf = csrfIn((await anonymous.get('/account')).text);
    // One kept-alive connection for every post: a connection reset or closed after the refusal fails the next one.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (path: string, cookies: Map<string, string>, body: string) =>
      new Promise<{ status: number; text: string; reused: boolean }>((resolve, reject) => {
        const outgoing = request(
          `${server.url}${path}`,
          {
            method: 'POST',
            agent,
            headers: {
              Accept: 'text/html',
              'Content-Type': 'application/x-www-form-urlencoded',
              'Content-Length': Buffer.byteLength(body),
              Cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
            },
          },
          (incoming) => {
            let text = '';
            incoming.setEncoding('utf8');
            incoming.on('data', (chunk: string) => {
              text += chunk;
            });
            incoming.on('end', () =>
              resolve({ status: incoming.statusCode ?? 0, text, reused: outgoing.reusedSocket }),
            );
          },
        );
        outgoing.on('error', reject);
        outgoing.end(body);
      });
    try {
      const words =
        'The form is larger than these pages read (24 KB): nothing was done. Shorten what you typed and send it again.';
      const large = 'a'.repeat(30_000);
      const signedIn = await send(
        `/account/keys/${key.id}/origins`,
        client.cookies,
        `_csrf=${csrf}&origins=https%3A%2F%2F${large}.example`,
      );
      expect(signedIn.status).toBe(413);
      expect(signedIn.text).toContain(`<p class="errors" role="alert">${words}</p>`);
      const signedOut = await send('/account/sign-in-link', anonymous.cookies, `_csrf=${formCsrf}&email=${large}`);
      expect([signedOut.status, signedOut.reused]).toEqual([413, true]);
      expect(signedOut.text).toContain(`<p class="errors" role="alert">${words}</p>`);
      const next = await send(
        `/account/keys/${key.id}/origins`,
        client.cookies,
        `_csrf=${csrf}&origins=https%3A%2F%2Fapp.example`,
      );
      expect([next.status, next.reused]).toEqual([303, true]);
      expect((await server.operator.showKey(key.id)).allowedOrigins).toEqual(['https://app.example']);
    } finally {
      agent.destroy();
    }
  });

  it("does not count a holder's renewal of a trial key as a trial request", async () => {
    const { key, client, csrf } = await holder('trial-renew@example.com', 'trial');
    const asked = await client.post(`/account/keys/${key.id}/requests`, {
      _csrf: csrf,
      kind: 'renewal',
      reason: 'More time to try.',
    });
    expect(asked.status).toBe(303);
    const range = { from: new Date(time.clock().getTime() - hourMs), to: new Date(time.clock().getTime() + hourMs) };
    expect(await trialRequestsFrom(database.db, range)).toEqual([]);
  });
});
