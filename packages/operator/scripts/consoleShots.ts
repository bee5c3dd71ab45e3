// `npm run console-shots -w @quotes/server`: the console's pages as PNGs in docs/console/, for
// the README. A throwaway database, a real server taking real calls today; the 29 days before
// are written straight into the usage history (a picture of a month needs a month), and one key
// is seen from six networks so a signal shows.
import { mkdirSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '@quotes/docs/testing';
import { connectDatabase, freePort, migrateToLatest, startEmbeddedPostgres } from '@quotes/database';
import { startConsole } from '../src/console/consoleServer.js';
import { callsInMonth, setCallsInMonth } from '@quotes/accounts';
import { calendarMonthOf } from '@quotes/accounts';
import { sendConsoleTraffic } from '../test/support/consoleTraffic.js';
import { loadFixtureCorpus } from '@quotes/server/testing';
import { startTestServer } from '@quotes/server/testing';

const outputDir = fileURLToPath(new URL('../docs/console/', import.meta.url));
const dayMs = 86_400_000;

const cluster = await startEmbeddedPostgres({
  dataDir: join(await mkdtemp(join(tmpdir(), 'quotes-console-shots-')), 'data'),
  port: await freePort(),
  persistent: false,
  fast: true,
});
const database = connectDatabase(cluster.urlFor('postgres'));
await migrateToLatest(database.db);
const server = await startTestServer(database);
const browser = await launchChromium();
try {
  await loadFixtureCorpus(database);
  const traffic = await sendConsoleTraffic(server);
  const others = await Promise.all(
    [
      ['Almanac Co', 'professional', 'ops@almanac.example'],
      ['Daily Verse', 'starter', 'dev@verse.example'],
      ['Quiet Hours', 'trial', 'sam@quiet.example'],
    ].map(([client, plan, email]) => server.createKey({ client: client!, plan: plan!, email })),
  );
  const keys = [traffic.reader, traffic.markup, ...others];
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const month = calendarMonthOf(new Date(today));
  // Busier by day than by night, in waves over the month; the trial key (last) stays small.
  const bases = [3, 2, 4, 3, 1.3];
  const rows = [];
  for (const [position, key] of keys.entries()) {
    let inMonth = 0;
    for (let day = 1; day < 30; day++)
      for (let hour = 0; hour < 24; hour++) {
        const start = new Date(today - day * dayMs + hour * 3_600_000);
        const daylight = 1 + Math.sin(((hour - 9) / 24) * 2 * Math.PI);
        const calls = Math.round(bases[position]! * daylight * (1.2 + Math.sin(day / 4 + position)));
        if (calls === 0) continue;
        rows.push({ key_id: key.id, span: 'hour' as const, period_start: start, outcome: 'served', calls });
        if (start >= month.start) inMonth += calls;
        if (hour === 14 && day % 5 === position)
          rows.push({ key_id: key.id, span: 'hour' as const, period_start: start, outcome: 'rate-limited', calls: 12 });
      }
    // The monthly counter agrees with the history, as the servers keep it.
    await setCallsInMonth(
      database.db,
      key.id,
      month.key,
      (await callsInMonth(database.db, key.id, month.key)) + inMonth,
    );
  }
  await database.db.insertInto('usage_history').values(rows).execute();
  const day = new Date(today).toISOString().slice(0, 10);
  await database.db
    .insertInto('usage_sightings')
    .values(
      [1, 2, 3, 4, 5, 6].map((network) => ({
        key_id: others[1]!.id,
        day,
        kind: 'network' as const,
        value: `203.0.${network * 16}.0/24`,
      })),
    )
    .execute();

  const running = await startConsole({ database, host: '127.0.0.1', port: 0 });
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(running.signInUrl);
  mkdirSync(outputDir, { recursive: true });
  const shoot = async (path: string, name: string) => {
    await page.goto(`${running.url}${path}`);
    await page
      .locator('figure[data-drawn="true"]')
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => undefined);
    await page.screenshot({ path: `${outputDir}${name}.png`, fullPage: true });
    process.stdout.write(`${outputDir}${name}.png\n`);
  };
  await shoot('/', 'overview');
  await shoot(`/keys/${others[0]!.id}`, 'key');
  await page.goto(`${running.url}/keys/${traffic.reader.id}/confirm/revoke?reason=published+in+a+public+repository`);
  await page.getByRole('button', { name: 'Confirm: revoke' }).click();
  await shoot('/audit', 'audit');
  await running.close();
} finally {
  await browser.close();
  await server.close();
  await database.close();
  await cluster.stop();
}
