import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Kysely } from 'kysely';
import type { Database } from '@quotes/database';
import { sharedSecret, spendChallenge, unprovenMailsTaken } from '../data/proofOfWorkRecords.js';
import { hourOf, secondsUntilNextHour } from '../data/unprovenMailBudget.js';
import type { Clock } from '../domain/clock.js';

/**
 * The proof of work (ALTCHA) the public forms that mail strangers (a key request, a holder's
 * sign-in link) ask for while the service is busy, so that a flood pays for each mail it makes
 * the service send. One rule, for both forms: the service is busy once `fromPercent` of the
 * hour's budget of mails to unproven addresses is taken, until the clock hour turns or the budget
 * is spent (then the budget refuses, and says when to come back). Below it the forms ask nothing. Challenges are stateless (signed with a secret the servers share in
 * PostgreSQL); a solved one is spent once, decided by a primary key (spent_challenges).
 */

/** The key derivation every challenge uses: PBKDF2, native in browsers' Web Crypto and in Node. */
export const proofAlgorithm = 'PBKDF2/SHA-256';
/** PBKDF2 rounds per try. */
export const proofCost = 1000;
/** The tries a solver needs lie evenly between these (about a second in Chromium and in Node). */
export const proofTries = { min: 500, max: 1500 } as const;
/** How long a challenge can be solved and sent: a person filling the form takes minutes. */
export const proofValidMs = 30 * 60_000;
/** How stale the mails taken may be when the rule reads them (a server reads at most this often). */
export const measuredEveryMs = 1000;
/** The longest payload read at all (a real one is about 700 characters). */
export const maxProofPayloadLength = 4000;

export interface ProofOfWorkSettings {
  /** PROOF_OF_WORK_FROM_PERCENT: the share of the hour's budget taken from which the forms ask. */
  readonly fromPercent: number;
  /** The hour's budget of mails to unproven addresses (UNPROVEN_MAILS_PER_HOUR, or the bounds'). */
  readonly unprovenMailsPerHour: number;
}

/** The forms ask for the proof: the challenge to embed, and when they stop asking. */
export interface ProofAsked {
  /** The signed challenge as the widget reads it (JSON). */
  readonly challenge: string;
  /** Seconds until the clock hour turns and the forms stop asking; undefined when they always ask. */
  readonly untilQuieterSeconds: number | undefined;
}

export type ProofCheck =
  | { readonly outcome: 'not-asked' | 'solved' }
  | {
      readonly outcome: 'refused';
      /** No proof sent, or one that is malformed, forged, expired or already used. */
      readonly reason: 'missing' | 'invalid' | 'expired' | 'spent';
      readonly asked: ProofAsked;
    };

export interface ProofOfWork {
  /** Whether the forms ask for the proof now: the challenge to embed, or undefined. */
  asked(): Promise<ProofAsked | undefined>;
  /** A form's `altcha` field checked (and spent when valid) while the forms ask; `not-asked` otherwise. */
  check(payload: unknown): Promise<ProofCheck>;
}

/** The mails taken from which the forms ask: the share of the budget, rounded up (0: always). */
export const askedFromMails = (settings: ProofOfWorkSettings): number =>
  Math.ceil((settings.unprovenMailsPerHour * settings.fromPercent) / 100);

/** The challenge and solution a payload claims, when it has their shape at all. */
function payloadOf(text: string):
  | {
      challenge: Parameters<typeof verifySolution>[0]['challenge'];
      solution: Parameters<typeof verifySolution>[0]['solution'];
    }
  | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { challenge, solution } = parsed as Record<string, unknown>;
  if (typeof challenge !== 'object' || challenge === null || typeof solution !== 'object' || solution === null)
    return undefined;
  const { parameters, signature } = challenge as Record<string, unknown>;
  if (typeof parameters !== 'object' || parameters === null || typeof signature !== 'string') return undefined;
  return parsed as ReturnType<typeof payloadOf>;
}

/** The two HMAC secrets a challenge is signed with (the challenge, the key at its count), from the shared secret. */
export const proofSecrets = (secret: Buffer): { signature: string; key: string } => ({
  signature: secret.subarray(0, 16).toString('hex'),
  key: secret.subarray(16).toString('hex'),
});

/** The name of the shared secret in service_secrets. */
export const proofSecretName = 'proof-of-work';

export function proofOfWork(db: Kysely<Database>, settings: ProofOfWorkSettings, clock: Clock): ProofOfWork {
  const fromMails = askedFromMails(settings);
  // The hour's mails taken, as last read: read again, in the background, when older than
  // `measuredEveryMs`, so a form never waits on the database for the rule (the public pages' pool
  // may be busy with the very flood the rule is for); only a new hour's first form waits.
  let known: { hour: number; taken: number; readAt: number } | undefined;
  let reading: Promise<number> | undefined;
  const read = (now: Date): Promise<number> => {
    reading ??= unprovenMailsTaken(db, now)
      .then((taken) => {
        known = { hour: hourOf(now).getTime(), taken, readAt: performance.now() };
        return taken;
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  /**
   * The rule: busy from `fromMails` taken until the budget is spent (then the budget refuses
   * every form, and a proof would buy nothing), until the clock hour turns.
   */
  const busy = async (now: Date): Promise<boolean> => {
    let taken: number;
    if (known?.hour === hourOf(now).getTime()) {
      taken = known.taken;
      if (performance.now() - known.readAt > measuredEveryMs) read(now).catch(() => undefined);
    } else taken = await read(now);
    return taken >= fromMails && taken < settings.unprovenMailsPerHour;
  };
  let secrets: Promise<{ signature: string; key: string }> | undefined;
  const secretsOf = () => {
    secrets ??= sharedSecret(db, proofSecretName)
      .then(proofSecrets)
      .catch((error: unknown) => {
        secrets = undefined;
        throw error;
      });
    return secrets;
  };
  const challenge = async (now: Date): Promise<ProofAsked> => {
    const secret = await secretsOf();
    const made = await createChallenge({
      algorithm: proofAlgorithm,
      cost: proofCost,
      // Deterministic mode: the server derives the key at a chosen count and signs it, so the
      // solver's tries are bounded and checking a solution is one HMAC.
      counter: randomInt(proofTries.max, proofTries.min),
      deriveKey,
      hmacSignatureSecret: secret.signature,
      hmacKeySignatureSecret: secret.key,
      // altcha-lib checks expiry against the system time, whatever the service's clock says.
      expiresAt: new Date(Date.now() + proofValidMs),
    });
    return {
      challenge: JSON.stringify(made),
      untilQuieterSeconds: fromMails === 0 ? undefined : secondsUntilNextHour(now),
    };
  };
  return {
    async asked() {
      const now = clock();
      return (await busy(now)) ? challenge(now) : undefined;
    },
    async check(payload) {
      const now = clock();
      if (!(await busy(now))) return { outcome: 'not-asked' };
      const refuse = async (reason: 'missing' | 'invalid' | 'expired' | 'spent'): Promise<ProofCheck> => ({
        outcome: 'refused',
        reason,
        asked: await challenge(now),
      });
      if (typeof payload !== 'string' || payload === '') return refuse('missing');
      const claimed = payload.length <= maxProofPayloadLength ? payloadOf(payload) : undefined;
      if (!claimed) return refuse('invalid');
      const secret = await secretsOf();
      let verified: Awaited<ReturnType<typeof verifySolution>>;
      try {
        verified = await verifySolution({
          challenge: claimed.challenge,
          solution: claimed.solution,
          deriveKey,
          hmacSignatureSecret: secret.signature,
          hmacKeySignatureSecret: secret.key,
        });
      } catch {
        // A payload of the right outline whose parts are not what they claim (numbers as text, ...).
        return refuse('invalid');
      }
      if (verified.expired) return refuse('expired');
      // Only a signed challenge of this service's own making reaches this far: its fields are ours.
      if (!verified.verified || claimed.challenge.parameters.algorithm !== proofAlgorithm) return refuse('invalid');
      const expiresAt = new Date((claimed.challenge.parameters.expiresAt ?? 0) * 1000);
      if (!(await spendChallenge(db, claimed.challenge.signature!, expiresAt, new Date()))) return refuse('spent');
      return { outcome: 'solved' };
    },
  };
}
