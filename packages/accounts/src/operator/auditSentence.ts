import type { Database } from '@quotes/database';
import type { Kysely } from 'kysely';
import type { AuditEntry } from '../data/operatorAudit.js';
import { expiryText } from '../domain/keyExpiry.js';
import { holderActorOf } from './operatorActor.js';
import { changeText } from './auditChange.js';

/**
 * The audit as the operator reads it: one sentence per action, its actor named. The console's
 * audit and `quotes-admin audit list` both show entries through this one formatter; `--json`
 * keeps the stored entry.
 */

type Fields = Record<string, unknown>;
const fieldsOf = (value: unknown): Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const listOf = (value: unknown): string =>
  Array.isArray(value) && value.length > 0 ? value.map(String).join(', ') : 'none';
/** "valid until 2099-01-31T23:59:59Z (end of that day, UTC)" or "with no expiry". */
const validity = (value: unknown): string =>
  text(value) ? `valid until ${expiryText(text(value)!)}` : 'with no expiry';

/** Who acted, in words: `holders` names a holder's hash by the address it was taken from, when known. */
export function actorName(actor: string, holders: ReadonlyMap<string, string> = new Map()): string {
  const [kind, ...rest] = actor.split(':');
  const id = rest.join(':');
  if (kind === 'os') return `the operator ${id} (command line)`;
  if (kind === 'console') return `the operator (console session ${id})`;
  if (kind === 'holder') {
    const email = holders.get(actor);
    return email ? `the key's holder ${email}` : `a key holder (${id})`;
  }
  if (actor === 'service:key-requests') return 'the service (a self-service key request)';
  return actor;
}

/** What was done, after the actor: "revoked key k_x (Client)". */
function deed(entry: AuditEntry, graceNote: string | undefined): string {
  const before = fieldsOf(entry.before);
  const after = fieldsOf(entry.after);
  const key = `key ${entry.keyId ?? entry.target}`;
  const client = text(after.client) ?? text(before.client);
  const named = client ? `${key} (${client})` : key;
  const categoryName = text(after.category) ?? text(after.revokedCategory);
  const category = categoryName ? ` (category: ${categoryName})` : '';
  switch (entry.action) {
    case 'keys create':
      return `created ${named} on the ${after.plan} plan${text(after.email) ? ` for ${after.email}` : ''}, ${validity(after.expiresAt)}`;
    case 'keys revoke':
      return `revoked ${named}${category}`;
    case 'keys roll':
      return `gave ${named} a new secret; ${graceNote ?? 'the previous one was refused at once'}`;
    case 'keys renew':
      return `renewed ${named}: ${validity(after.expiresAt)} (it ${text(before.expiresAt) ? `was ${validity(before.expiresAt)}` : 'had no expiry'})`;
    case 'keys change-plan':
      return `moved ${named} from the ${before.plan} plan to the ${after.plan} plan`;
    case 'keys set-origins':
      return `set the browser origins of ${named} to ${listOf(after.allowedOrigins)} (they were ${listOf(before.allowedOrigins)})`;
    case 'keys allowance-mails':
      return `turned ${after.allowanceMails ? 'on' : 'off'} the allowance mails of ${key}`;
    case 'requests approve':
      return entry.target.startsWith('r_') && text(before.kind) && before.kind !== 'key'
        ? `approved request ${entry.target} (${before.kind}) of ${key}: on the ${after.plan} plan, ${validity(after.expiresAt)}`
        : `approved request ${entry.target}: ${after.keyId ? `key ${after.keyId}` : 'a key'} on the ${after.plan} plan`;
    case 'requests reject':
      return `rejected request ${entry.target}${text(before.kind) && before.kind !== 'key' ? ` (${before.kind}) of ${key}` : ''}${category}`;
    case 'requests plan-change':
      return `asked for ${key} to move to the ${after.plan} plan (request ${entry.target})`;
    case 'requests renewal':
      return `asked for a renewal of ${key} (request ${entry.target})`;
    default: {
      const change = changeText(entry.before, entry.after);
      return `ran ${entry.action} on ${entry.target}${change === 'null' || change === '' ? '' : ` (${change})`}`;
    }
  }
}

const gracePrefix = 'previous secret valid until ';

/** One action in one sentence: "The operator alice (command line) revoked key k_x (Acme). Reason: “leaked”." */
export function auditSentence(entry: AuditEntry, holders: ReadonlyMap<string, string> = new Map()): string {
  // A roll's grace is written into its reason by the service: it belongs to what was done.
  const parts = (entry.reason ?? '').split('; ').filter((part) => part !== '');
  const grace = parts.find((part) => part.startsWith(gracePrefix));
  const reason = parts.filter((part) => part !== grace).join('; ');
  const graceNote = grace && `the previous one worked until ${grace.slice(gracePrefix.length)}`;
  const who = actorName(entry.actor, holders);
  const sentence = `${who.charAt(0).toUpperCase()}${who.slice(1)} ${deed(entry, graceNote)}.`;
  return reason === '' ? sentence : `${sentence} Reason: “${reason}”.`;
}

/**
 * The holders among these entries' actors, by the address of the key each acted on: a holder's
 * actor is a hash of their canonical address, so it is named only when a key's address hashes to it.
 */
export async function holderNames(
  db: Kysely<Database>,
  entries: readonly Pick<AuditEntry, 'actor' | 'keyId'>[],
): Promise<Map<string, string>> {
  const keyIds = [
    ...new Set(
      entries.filter((entry) => entry.actor.startsWith('holder:') && entry.keyId).map((entry) => entry.keyId!),
    ),
  ];
  if (keyIds.length === 0) return new Map();
  const rows = await db.selectFrom('api_keys').select(['email', 'email_canonical']).where('id', 'in', keyIds).execute();
  const names = new Map<string, string>();
  for (const row of rows)
    if (row.email && row.email_canonical) names.set(holderActorOf(row.email_canonical), row.email);
  return names;
}
