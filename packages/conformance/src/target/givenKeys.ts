import { problemTypePrefix } from '@quotes/contract';
import { operationById } from '../contract/operations.js';
import { type PlanRules, planRules } from '../contract/plans.js';
import type { Exchange, ObservedClient } from '../http/observedClient.js';
import type { KeyUnderTest } from '../properties/runProperties.js';
import { keyHint } from '../report/keyHint.js';
import type { Report } from '../report/report.js';
import { RunNotPossible } from '../runNotPossible.js';
import { rulesOf, type SuiteKeys, underTest } from './keys.js';

/** Keys an operator hands the CLI for a deployment the suite cannot provision. */
export interface GivenKeys {
  /** Active keys by plan. */
  readonly plans: Readonly<Partial<Record<string, string>>>;
  readonly revoked?: string;
  readonly expired?: string;
  readonly exhausted?: string;
  /** Where each role's key came from, for the error that names it: `keys file`, `--key-trial`, `CONFORMANCE_KEY_TRIAL`. */
  readonly sources?: Readonly<Partial<Record<string, string>>>;
}

/** Given keys that do not answer as their roles say: the run stops before any check (exit 2), one line per key. */
export class KeysNotAsGiven extends RunNotPossible {
  override readonly name = 'KeysNotAsGiven';
}

type Body = Record<string, unknown>;

/** What quotes-usage answered, in the words of its problem: `401 invalid-api-key: The API key is not recognised.` */
function answered(exchange: Exchange): string {
  const body = (exchange.json ?? {}) as Body;
  const { status } = exchange.response;
  if (status === 200) {
    const left = body.calls_remaining === null ? 'no monthly limit' : `${String(body.calls_remaining)} calls left`;
    return `200: an active ${String(body.tier)} key, ${left}`;
  }
  const kind = typeof body.type === 'string' ? body.type.replace(problemTypePrefix, '') : '';
  const detail = typeof body.detail === 'string' ? body.detail : exchange.response.body.slice(0, 120);
  return `${status}${kind ? ` ${kind}` : ''}${detail ? `: ${detail}` : ''}`;
}

/**
 * Checks, through `quotes-usage` (a call that never counts), that each given key is what its role
 * says: an active key of that plan with calls left, revoked, expired, or active with none left.
 * Every key that is not ends the run before any check, named by role and by its first
 * characters, with what the server answered. Also learns what the contract leaves per key (an
 * enterprise key's allowance and largest page) and each active key's count at the start.
 */
export async function checkGivenKeys(
  client: ObservedClient,
  given: GivenKeys,
  report: Report,
  rules: ReadonlyMap<string, PlanRules> = planRules(),
): Promise<{ keys: SuiteKeys; callsBefore: ReadonlyMap<string, number> }> {
  const layer = 'Keys';
  const usagePath = operationById('getUsage').path;
  const wrong: string[] = [];
  const usage = async (role: string, key: string) => {
    const exchange = await client.get(usagePath, { 'X-API-Key': key });
    const body = (exchange.json ?? {}) as Body;
    const refuse = (what: string) =>
      wrong.push(`${given.sources?.[role] ?? 'keys'}: role "${role}" (${keyHint(key)}) ${what}`);
    return { exchange, body, refuse };
  };

  const active: KeyUnderTest[] = [];
  const callsBefore = new Map<string, number>();
  for (const [plan, key] of Object.entries(given.plans)) {
    if (!key) continue;
    const { exchange, body, refuse } = await usage(plan, key);
    if (exchange.response.status !== 200 || body.tier !== plan) {
      refuse(`answered ${answered(exchange)}; the role needs an active ${plan} key`);
      continue;
    }
    if (body.calls_remaining === 0) {
      refuse(`answered ${answered(exchange)}; the role needs calls left (a used-up key is the role "exhausted")`);
      continue;
    }
    const rule = rulesOf(plan, rules);
    let maxLimit = rule.maxLimit;
    if (rule.perKey) {
      // The applied page size of the largest request the contract allows is the key's own limit.
      const page = await client.get(`${operationById('listQuotes').path}?limit=1000`, { 'X-API-Key': key });
      const applied = (page.json as Body | undefined)?.limit;
      if (typeof applied === 'number') maxLimit = applied;
    }
    active.push(underTest(key, rule, { monthlyCalls: (body.call_limit as number | null) ?? null, maxLimit }));
    callsBefore.set(key, Number(body.calls_this_month));
    report.pass(
      layer,
      `role ${plan}`,
      `active ${plan} key, ${String(body.calls_this_month)} calls this month`,
      exchange.durationMs,
    );
  }

  const state = async (role: 'revoked' | 'expired'): Promise<string | undefined> => {
    const key = given[role];
    if (!key) return undefined;
    const { exchange, body, refuse } = await usage(role, key);
    if (exchange.response.status === 403 && body.type === `${problemTypePrefix}${role}-api-key`) {
      report.pass(layer, `role ${role}`, `answers 403 ${role}-api-key`, exchange.durationMs);
      return key;
    }
    refuse(`answered ${answered(exchange)}; the role needs 403 ${role}-api-key`);
    return undefined;
  };
  const revoked = await state('revoked');
  const expired = await state('expired');

  let exhausted: KeyUnderTest | undefined;
  if (given.exhausted) {
    const { exchange, body, refuse } = await usage('exhausted', given.exhausted);
    const plan = String(body.tier);
    if (exchange.response.status === 200 && body.calls_remaining === 0 && rules.has(plan)) {
      exhausted = underTest(given.exhausted, rulesOf(plan, rules), { monthlyCalls: body.call_limit as number });
      report.pass(
        layer,
        'role exhausted',
        `${plan} key, ${String(body.calls_this_month)} of ${String(body.call_limit)} calls used`,
        exchange.durationMs,
      );
    } else {
      refuse(`answered ${answered(exchange)}; the role needs an active key with no calls left`);
    }
  }
  if (wrong.length > 0) throw new KeysNotAsGiven(wrong.join('\n'));

  const find = (predicate: (key: KeyUnderTest) => boolean) => active.find(predicate)?.key;
  const limited = find((key) => key.monthlyCalls !== null && key.faithFilter && key.filtersPerCall >= 5);
  const oneFilter = find((key) => key.filtersPerCall === 1);
  const other = find((key) => key.key !== limited);
  return {
    keys: {
      dredd: { limited, oneFilter, other, revoked, expired, exhausted: exhausted?.key },
      properties: { active, exhausted, revoked, expired },
    },
    callsBefore,
  };
}
