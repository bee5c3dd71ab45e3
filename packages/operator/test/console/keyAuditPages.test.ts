import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningConsole, startConsole } from '../../src/console/consoleServer.js';
import { createOperatorApi, type OperatorApi } from '@quotes/accounts';

let database: TestDatabase;
let operator: OperatorApi;
let running: RunningConsole;
let cookie: string;

/** A page of the console over real HTTP, as the signed-in session. */
async function get(path: string): Promise<{ status: number; body: string }> {
  const answer = await fetch(`${running.url}${path}`, { headers: { cookie }, redirect: 'manual' });
  return { status: answer.status, body: await answer.text() };
}

/** A page's audit rows as their reasons (`entry N`) or, for the key's creation, `create`; and its links on. */
function auditOf(body: string) {
  // The audit is the last table of a key's page, the only one of its audit pages.
  const section = body.slice(body.lastIndexOf('<table>'));
  // Each row: when, then what was done in one sentence (auditSentence), its reason quoted last.
  const rows = [...section.matchAll(/<tr><td>[^<]*<\/td><td>(.*?)<\/td><\/tr>/gs)].map(([, sentence]) =>
    / created key /.test(sentence!) ? 'create' : (/Reason: “([^”]*)”/.exec(sentence!)?.[1] ?? sentence!),
  );
  const link = (rel: string) =>
    new RegExp(`<a href="([^"]+)" rel="${rel}">`).exec(body)?.[1]?.replaceAll('&amp;', '&') ?? undefined;
  return { rows, older: link('next'), newer: link('prev') };
}

const entries = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => `entry ${to - index}`);

beforeAll(async () => {
  database = await createTestDatabase();
  operator = createOperatorApi(database);
  running = await startConsole({ database, host: '127.0.0.1', port: 0, log: () => undefined });
  const signIn = await fetch(running.signInUrl, { redirect: 'manual' });
  cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
}, 60_000);
afterAll(async () => {
  await running?.close();
  await database?.drop();
});

describe("a key's audit in the console", () => {
  it('pages from the newest entry back to the key’s first, 50 at a time, and forward again', async () => {
    const { id } = await operator.createKey({ client: 'Busy Holder Co', plan: 'starter' });
    for (let index = 1; index <= 130; index++)
      await operator.recordAction({
        action: 'keys note',
        target: id,
        keyId: id,
        before: null,
        after: { index },
        reason: `entry ${index}`,
      });

    const keyPage = auditOf((await get(`/keys/${id}`)).body);
    expect(keyPage.rows).toEqual(entries(81, 130));
    expect(keyPage.newer).toBeUndefined();

    const second = await get(keyPage.older!);
    expect(second.status).toBe(200);
    const secondPage = auditOf(second.body);
    expect(secondPage.rows).toEqual(entries(31, 80));
    // An entry recorded meanwhile shifts no page: the older one is still where it was.
    await operator.recordAction({
      action: 'keys note',
      target: id,
      keyId: id,
      before: null,
      after: null,
      reason: 'entry 131',
    });
    const last = auditOf((await get(secondPage.older!)).body);
    expect(last.rows).toEqual([...entries(1, 30), 'create']);
    expect(last.older).toBeUndefined();

    // Forward from the first entry, page by page, to the newest: each entry once, in order.
    const seen: string[] = [];
    let page = last;
    for (let pages = 0; page.newer && pages < 10; pages++) {
      page = auditOf((await get(page.newer)).body);
      seen.unshift(...page.rows);
    }
    expect(page.newer).toBeUndefined();
    expect(seen).toEqual(entries(31, 131));
  });

  it('names a bad page parameter, and answers an unknown key as not found', async () => {
    const { id } = await operator.createKey({ client: 'Odd Cursor Co', plan: 'starter' });
    const bad = await get(`/keys/${id}/audit?older=abc`);
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('older must be the number of an audit entry, got &quot;abc&quot;');
    expect((await get(`/keys/${id}/audit?older=1&newer=2`)).status).toBe(400);
    expect((await get('/keys/k_nope/audit')).status).toBe(404);
    // Another key's entry as the cursor leads nowhere: no entry of another key is shown.
    const page = auditOf((await get(`/keys/${id}/audit?older=1`)).body);
    expect(page.rows).toEqual([]);
  });
});
