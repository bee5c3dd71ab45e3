import { accessSync, constants } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/**
 * Debian's chromium (apt-get install chromium), or CHROMIUM_PATH. Playwright's own browser
 * download cannot work on these machines, so there is no fallback to it.
 */
function findChromium(): { executablePath: string } | { skipReason: string } {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    // Asked for by name: a wrong path is a broken setup to report, not a reason to skip.
    accessSync(configured, constants.X_OK);
    return { executablePath: configured };
  }
  try {
    accessSync('/usr/bin/chromium', constants.X_OK);
    return { executablePath: '/usr/bin/chromium' };
  } catch {
    return {
      skipReason: 'no browser: /usr/bin/chromium is missing and CHROMIUM_PATH is not set (apt-get install chromium)',
    };
  }
}

const found = findChromium();

/** Why the browser tests are skipped here, or undefined when a browser is installed. */
export const browserSkipReason: string | undefined = 'skipReason' in found ? found.skipReason : undefined;

if (browserSkipReason) console.warn(`SKIPPED browser tests: ${browserSkipReason}`);

/**
 * Headless Chromium with the flags these machines need: without the background-networking
 * ones it keeps dialling Google's hosts through a closed network. Playwright gives every
 * launch a fresh, empty user-data-dir of its own.
 */
export function launchChromium(): Promise<Browser> {
  if (!('executablePath' in found)) throw new Error(found.skipReason);
  return chromium.launch({
    executablePath: found.executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
