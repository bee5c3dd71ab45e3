import type { DatabaseHandle } from '@quotes/database';
import { countKeys } from './data/apiKeys.js';
import { localDevelopmentOrigins } from './domain/allowedOrigins.js';
import type { Logger } from '@quotes/service-base';
import { createOperatorApi, type IssuedKey } from './operator/operatorApi.js';

/** The plan of the key `npm start` creates on a fresh database: limited, so the allowance headers show. */
const demoPlan = 'professional';

/** For the person at the terminal: stderr, never stdout, where the JSON log lines go (and get shipped). */
function banner(lines: string[]): void {
  process.stderr.write(`\n${lines.join('\n')}\n\n`);
}

/** On a database without keys, the demo key (shown once, by announceKeys); undefined when keys exist. */
export async function createDemoKey(database: DatabaseHandle, log: Logger): Promise<IssuedKey | undefined> {
  if ((await countKeys(database.db)) > 0) return undefined;
  const issued = await createOperatorApi(database).createKey({
    client: 'Demo (created by npm start)',
    plan: demoPlan,
    allowedOrigins: localDevelopmentOrigins,
  });
  log.info({ keyId: issued.id, prefix: issued.prefix, plan: issued.plan }, 'created the demo key');
  return issued;
}

/** The demo key just created with what to try, or how to make another (`npm start`, `npm run cluster`). */
export function announceKeys(
  baseUrl: string,
  issued: IssuedKey | undefined,
  /** Lines shown under the first (the cluster's servers and metrics). */
  details: string[] = [],
): void {
  const createAnother = `npx quotes-admin keys create --client "Your name" --plan ${demoPlan}`;
  if (!issued) {
    banner([
      `Quote Retrieval Service on ${baseUrl}`,
      ...details,
      'Keys already exist (each is shown only once, when created). To get a new one:',
      `  ${createAnother}`,
    ]);
    return;
  }
  banner([
    `Quote Retrieval Service on ${baseUrl}`,
    ...details,
    `Demo key (${issued.plan} plan, id ${issued.id}), shown only this once:`,
    `  ${issued.key}`,
    'Try it:',
    `  curl -H "X-API-Key: ${issued.key}" ${baseUrl}/v1/quotes-random`,
    `  curl -H "Authorization: Bearer ${issued.key}" "${baseUrl}/v1/quotes-filter?category=grief&limit=3"`,
    `  curl -H "X-API-Key: ${issued.key}" ${baseUrl}/v1/quotes-categories`,
    `  curl -H "X-API-Key: ${issued.key}" ${baseUrl}/v1/quotes-usage`,
    `More keys: ${createAnother}`,
  ]);
}
