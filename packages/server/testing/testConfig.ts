import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, parseConfig } from '@quotes/service-base';

/** The servers' DATA_DIR (journals of counted calls, the mail outbox), one per test worker. */
/**
 * WARM_UP_CALLS of the tests' servers: the suite starts servers by the hundred (and the kill tests
 * restart them by the ten), so each warms up on 2,000 calls, not 30,000; the warm-up's own test,
 * requestPathWarmUp.test.ts, runs it as configured.
 */
export const testWarmUpCalls = '2000';

export const testDataDir = join(tmpdir(), `quotes-test-data-${process.pid}`);

/**
 * The configuration a test's server starts with: what `npm start` parses from an empty
 * environment, except what a test must not share with the checkout or with the tests beside it
 * (named here), and `env`, the test's own settings.
 */
export function testConfig(env: Record<string, string> = {}): Config {
  return parseConfig({
    // Journals and mail in the temporary folder, never the checkout's .data/.
    DATA_DIR: testDataDir,
    // A free port each: test files run side by side.
    PORT: '0',
    WARM_UP_CALLS: testWarmUpCalls,
    ...env,
  });
}
