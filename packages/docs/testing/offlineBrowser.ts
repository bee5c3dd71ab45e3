import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { ReferencePage } from './referencePage.js';

export interface OpenedReferencePage {
  readonly browser: Browser;
  readonly reference: ReferencePage;
  /** Requests to any host but this machine, refused before they leave: the page must work offline. */
  readonly offHost: string[];
  /** Uncaught exceptions and console errors, Content-Security-Policy violations among them. */
  readonly pageErrors: string[];
  /** Saves what the page shows now as a PNG at `path`, creating its folder. */
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A browser context that reaches only this machine: every request to another host is refused
 * before it leaves and its URL added to `offHost`.
 */
export async function offlineContext(
  browser: Browser,
  viewport: { width: number; height: number },
  offHost: string[],
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  await context.route('**/*', (route) => {
    const { hostname } = new URL(route.request().url());
    if (hostname === '127.0.0.1' || hostname === 'localhost') return route.continue();
    offHost.push(route.request().url());
    return route.abort('internetdisconnected');
  });
  return context;
}

/** Chromium on a page of this machine with every other host cut off, the reference page opened at `url`. */
export async function openReferencePage(url: string): Promise<OpenedReferencePage> {
  const browser = await launchChromium();
  const offHost: string[] = [];
  const pageErrors: string[] = [];
  try {
    const context = await offlineContext(browser, { width: 1400, height: 1000 }, offHost);
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    const reference = new ReferencePage(page);
    await reference.open(url);
    return {
      browser,
      reference,
      offHost,
      pageErrors,
      async screenshot(path) {
        mkdirSync(dirname(path), { recursive: true });
        await page.screenshot({ path });
      },
      close: () => browser.close(),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
