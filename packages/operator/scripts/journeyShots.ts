// `npm run journey-shots -w @quotes/operator`: what a holder and the operator see, as PNGs at a
// desktop's width (1280 px) and a phone's (390 px), in docs/journey/, for the README:
// the holder's keys (/account), a key's page with a running grace and its charts, and the
// console's overview. A throwaway PostgreSQL with the fixture corpus, a server started as
// `npm start` starts it (startServer with the configuration of an empty environment), real calls
// spread over the last 45 days on the server's clock, real Chromium.
import { mkdirSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '@quotes/docs/testing';
import { connectDatabase, freePort, migrateToLatest, startEmbeddedPostgres } from '@quotes/database';
import {
  AccountClient,
  loadFixtureCorpus,
  manualClock,
  startServerMailingTo,
  startSmtpInbox,
} from '@quotes/server/testing';
import { startConsole } from '../src/console/consoleServer.js';

const outputDir = fileURLToPath(new URL('../docs/journey/', import.meta.url));
const dayMs = 86_400_000;
const widths = [1280, 390] as const;

const cluster = await startEmbeddedPostgres({
  dataDir: join(await mkdtemp(join(tmpdir(), 'quotes-journey-shots-')), 'data'),
  port: await freePort(),
  persistent: false,
  fast: true,
});
const database = connectDatabase(cluster.urlFor('postgres'));
await migrateToLatest(database.db);
await loadFixtureCorpus(database);
const inbox = await startSmtpInbox();
// The server's clock starts 45 days back, so that the calls below fall on days of their own.
const now = Date.now();
const time = manualClock(new Date(now - 45 * dayMs));
const server = await startServerMailingTo(database, inbox, { clock: time.clock });
const browser = await launchChromium();
try {
  const email = 'ann@reading-nook.example';
  const nook = await server.operator.createKey({ client: 'Reading Nook', plan: 'professional', email });
  const quotes = await server.operator.createKey({ client: 'Daily Quote Widget', plan: 'starter', email });
  const call = (key: string, query = '') =>
    fetch(`${server.url}/v1/quotes-random${query}`, { headers: { 'X-API-Key': key } }).then((answer) =>
      answer.arrayBuffer(),
    );
  // Busier on weekdays, in waves; now and then a call beyond the plan (403 plan-limit) or a bad filter (400).
  for (let day = 0; day < 45; day++) {
    time.set(new Date(now - (45 - day) * dayMs + 10 * 3_600_000));
    const weekday = new Date(time.clock()).getUTCDay() % 6 !== 0;
    const calls = Math.round((weekday ? 9 : 3) * (1.2 + Math.sin(day / 5)));
    for (let i = 0; i < calls; i++) await call(nook.key);
    if (day % 7 === 3) await call(nook.key, '?length=Huge');
    if (day >= 30) for (let i = 0; i < 3; i++) await call(quotes.key);
    if (day % 9 === 4) await call(quotes.key, '?faith=Buddhist');
    // The per-second bucket refills in real time.
    await new Promise((resolve) => setTimeout(resolve, 120));
  }
  time.set(new Date(now));
  await server.flushCounts();
  await server.flushUsageHistory();
  // The holder rolls the key with a day's grace: the page shows the earlier secret's end.
  await server.operator.rollKey(nook.id, { graceMs: dayMs });

  const holder = new AccountClient(server.url);
  await holder.signIn(inbox, email);
  const session = holder.cookies.get('quotes_account')!;
  const console_ = await startConsole({ database, host: '127.0.0.1', port: 0, clock: time.clock });
  // The console's sign-in link works once: its session cookie goes to every width.
  const signing = await browser.newContext();
  await (await signing.newPage()).goto(console_.signInUrl);
  const consoleCookies = await signing.cookies(console_.url);
  await signing.close();
  mkdirSync(outputDir, { recursive: true });
  for (const width of widths) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await context.addCookies([
      { name: 'quotes_account', value: session, url: `${server.url}/account` },
      ...consoleCookies,
    ]);
    const page = await context.newPage();
    const shoot = async (url: string, name: string) => {
      const answer = await page.goto(url);
      if (answer?.status() !== 200) throw new Error(`${url} answered ${answer?.status()}`);
      await page
        .locator('figure[data-drawn="true"]')
        .first()
        .waitFor({ timeout: 5_000 })
        .catch(() => undefined);
      const path = `${outputDir}${name}-${width}.png`;
      await page.screenshot({ path, fullPage: true });
      process.stdout.write(`${path}\n`);
    };
    await shoot(`${server.url}/account`, 'holder-keys');
    await shoot(`${server.url}/account/keys/${nook.id}`, 'holder-key');
    await shoot(`${console_.url}/`, 'console-overview');
    await context.close();
  }
  await console_.close();
} finally {
  await browser.close();
  await server.close();
  await inbox.close();
  await database.close();
  await cluster.stop();
}
