import { type Challenge, createChallenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { proofAlgorithm, proofCost, proofSecretName, proofSecrets } from '@quotes/accounts';
import type { DatabaseHandle } from '@quotes/database';

/** The signed challenge a form carries in its widget (`challenge="..."`, HTML-escaped), or undefined. */
export function challengeIn(page: string): string | undefined {
  const attribute = /<altcha-widget [^>]*challenge="([^"]*)"/.exec(page)?.[1];
  return attribute
    ?.replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** What a visitor's widget posts as `altcha` once it solved `challenge`: solved here with altcha-lib's own solver. */
export async function solvedPayload(challenge: string): Promise<string> {
  const parsed = JSON.parse(challenge) as Challenge;
  const solution = await solveChallenge({ challenge: parsed, deriveKey });
  if (!solution) throw new Error('the challenge was not solved');
  return Buffer.from(
    JSON.stringify({ challenge: { parameters: parsed.parameters, signature: parsed.signature }, solution }),
  ).toString('base64');
}

/**
 * A challenge signed with the service's own secret (read from its database, as only a server can)
 * but made here: one that expired `agoMs` ago, say, which no form hands out.
 */
export async function signedChallenge(
  database: DatabaseHandle,
  options: { expiresAt: Date; counter?: number },
): Promise<string> {
  const row = await database.db
    .selectFrom('service_secrets')
    .select('secret')
    .where('name', '=', proofSecretName)
    .executeTakeFirstOrThrow();
  const secrets = proofSecrets(row.secret);
  const made = await createChallenge({
    algorithm: proofAlgorithm,
    cost: proofCost,
    counter: options.counter ?? 10,
    deriveKey,
    hmacSignatureSecret: secrets.signature,
    hmacKeySignatureSecret: secrets.key,
    expiresAt: options.expiresAt,
  });
  return JSON.stringify(made);
}
