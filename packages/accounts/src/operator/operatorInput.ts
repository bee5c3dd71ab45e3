import { rules, taxonomy } from '@quotes/contract';
import { checkTextField, withRefusedShown } from '@quotes/text-rules';
import type { KeyState } from '../data/keyOwners.js';
import { canonicalOrigin, maxAllowedOrigins, originHint } from '../domain/allowedOrigins.js';
import { type DecisionCategory, decisionCategoryIds, isDecisionCategory } from '../domain/decisionCategories.js';
import { emailAddressProblem, emailMaxCharacters } from '../domain/emailAddress.js';
import { plansWhere } from '../domain/plans.js';
import { OperatorError } from './operatorError.js';

/**
 * What the operator types, checked before it is stored or mailed by the text-field rule every
 * surface shares (@quotes/text-rules): nothing that could later forge a line of a table, move
 * the cursor of a terminal, reorder what is shown or add a header to a message.
 */

/** One line per message, with what was refused shown escaped. */
export function quoted(text: string): string {
  return withRefusedShown(JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}...` : text));
}

export function requireText(value: string, name: string, max: number): string {
  const checked = checkTextField(value, { maxCharacters: max });
  if ('text' in checked) return checked.text;
  throw new OperatorError(
    checked.refused === 'length' ? `${name} ${checked.message}` : `${name} ${quoted(value.trim())} ${checked.message}`,
  );
}

/** The longest client (organisation or person) name: what every list and mail shows. */
export const clientNameMaxCharacters = 200;

/** Client (organisation or person) names: as shown in every list and mail. */
export function requireClientName(value: string): string {
  return requireText(value, 'client', clientNameMaxCharacters);
}

/**
 * An address mail can be sent to: one `@`, a domain with a top-level part, no display name, no
 * IP literal, no quoted local part; at most 254 characters (RFC 5321's path limit).
 */
export function requireEmail(value: string, name = 'email'): string {
  const text = value.trim();
  const problem = emailAddressProblem(text);
  if (problem === undefined) return text;
  if (problem.startsWith('is longer than'))
    throw new OperatorError(`${name} must be at most ${emailMaxCharacters} characters`);
  throw new OperatorError(`${name} ${quoted(text)} is not an e-mail address`);
}

/** Free text kept with a key (a revocation's reason) or sent as a subject. */
export function optionalText(value: string | null | undefined, name: string, max: number): string | null {
  if (value == null || value.trim() === '') return null;
  return requireText(value, name, max);
}

/** A key's browser origins, canonical and without duplicates (see domain/allowedOrigins.ts). */
export function requireOrigins(values: readonly string[]): string[] {
  const origins: string[] = [];
  const refused: string[] = [];
  for (const value of values) {
    const canonical = canonicalOrigin(value);
    if ('error' in canonical) refused.push(canonical.error);
    else if (!origins.includes(canonical.origin)) origins.push(canonical.origin);
  }
  // Every bad entry named at once, so one correction fixes them all (the hint said once).
  if (refused.length === 1) throw new OperatorError(refused[0]!);
  if (refused.length > 1) {
    const named = refused.slice(0, 20).map((error) => error.replace(`: ${originHint}`, ''));
    const more = refused.length > 20 ? `; and ${refused.length - 20} more` : '';
    throw new OperatorError(`${refused.length} entries are not origins (${originHint}): ${named.join('; ')}${more}`);
  }
  if (origins.length > maxAllowedOrigins)
    throw new OperatorError(`a key allows at most ${maxAllowedOrigins} origins, got ${origins.length}`);
  return origins;
}

/* Choices rather than text: the same rule whether a flag, a form field or a query value gives them. */

/** A plan as the contract names it. */
export function requirePlanName(value: string, name = 'plan'): string {
  if (!taxonomy.plans.includes(value))
    throw new OperatorError(`${name} must be one of ${taxonomy.plans.join(', ')}, got ${quoted(value)}`);
  return value;
}

/** What the holder is told of a decision: one of the fixed categories (domain/decisionCategories.ts). */
export function requireDecisionCategory(value: unknown, name = 'category'): DecisionCategory {
  if (isDecisionCategory(value)) return value;
  throw new OperatorError(
    `${name} must be one of ${decisionCategoryIds.join(', ')}${typeof value === 'string' ? `, got ${quoted(value)}` : ''}`,
  );
}

export const keyStates: readonly KeyState[] = ['active', 'expired', 'revoked'];

/** A key's state as lists filter by it. */
export function requireKeyState(value: string, name = 'state'): KeyState {
  const state = keyStates.find((known) => known === value);
  if (!state) throw new OperatorError(`${name} must be one of ${keyStates.join(', ')}, got ${quoted(value)}`);
  return state;
}

/** A page of a list: 1 to 999,999. */
export function requirePageNumber(text: string, name = 'page'): number {
  if (!/^\d{1,6}$/.test(text.trim()) || Number(text) < 1)
    throw new OperatorError(`${name} must be a whole number from 1 to 999999, got ${quoted(text)}`);
  return Number(text);
}

export const maxMonthlyCalls = 2_147_483_647;

/** A surface's words for a per-key plan's allowance: `--monthly-calls`/`--unlimited`, or the console's labels. */
export interface AllowanceNames {
  readonly calls: string;
  readonly unlimited: string;
}

/** The action's own words, for callers with none of their own (a key request's approval in code, the tests). */
export const actionAllowanceNames: AllowanceNames = { calls: 'a monthly allowance', unlimited: 'unlimited' };

export interface AllowanceChoice {
  readonly monthlyCalls?: number | string | null;
  readonly unlimited?: boolean;
}

/** The choice as given, a blank number as none (a form's empty field). */
export function allowanceOf(choice: AllowanceChoice): { monthlyCalls: number | string | null; unlimited: boolean } {
  const calls = typeof choice.monthlyCalls === 'string' ? choice.monthlyCalls.trim() : choice.monthlyCalls;
  return { monthlyCalls: calls === undefined || calls === '' ? null : calls, unlimited: choice.unlimited === true };
}

/**
 * The refusal of a per-key plan's allowance as chosen: typed, so each surface says it in its own
 * words (`in(names)`), while the rule itself is the action's.
 */
export class AllowanceChoiceError extends OperatorError {
  constructor(
    message: string,
    readonly plan: string,
    readonly choice: AllowanceChoice,
  ) {
    super(message, 'invalid');
  }

  /** The same refusal, naming the surface's fields. */
  in(names: AllowanceNames): string {
    try {
      requireAllowanceChoice(this.plan, this.choice, names);
    } catch (error) {
      if (error instanceof OperatorError) return error.message;
    }
    return this.message;
  }
}

/**
 * A per-key plan's monthly allowance is chosen out loud: a number of calls, or unlimited; never by
 * leaving the number out. The key actions (create, change of plan) call it, whichever surface
 * asked; `names` are the words of the refusal. Returns the calls, null for unlimited or none given.
 */
export function requireAllowanceChoice(
  plan: string,
  choice: AllowanceChoice,
  names: AllowanceNames = actionAllowanceNames,
): number | null {
  const text = typeof choice.monthlyCalls === 'string' ? choice.monthlyCalls.trim() : choice.monthlyCalls;
  const given = text !== undefined && text !== null && text !== '';
  const refuse = (message: string) => new AllowanceChoiceError(message, plan, choice);
  if (choice.unlimited && given) throw refuse(`give ${names.calls} or ${names.unlimited}, not both`);
  const perKey = rules.plans.find((rule) => rule.id === plan)?.perKeyLimits ?? false;
  if (!perKey && choice.unlimited)
    throw refuse(`${names.unlimited} is only for keys on ${plansWhere((rule) => rule.perKeyLimits)}, not ${plan}`);
  if (perKey && !given && !choice.unlimited)
    throw refuse(`${plan} keys need ${names.calls} N (calls a month), or ${names.unlimited} for no monthly limit`);
  if (!given) return null;
  const calls = Number(text);
  if (
    (typeof text === 'string' && !/^\d{1,10}$/.test(text)) ||
    !Number.isInteger(calls) ||
    calls < 0 ||
    calls > maxMonthlyCalls
  )
    throw refuse(`${names.calls} must be a whole number from 0 to ${maxMonthlyCalls}, got ${quoted(String(text))}`);
  return calls;
}
