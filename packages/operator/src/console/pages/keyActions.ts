import { taxonomy } from '@quotes/contract';
import {
  type DecisionCategory,
  decisionCategories,
  decisionCategoryWords,
  endOfDay,
  readCalendarDate,
} from '@quotes/accounts/rules';
import {
  changePlanAndTell,
  renewAndTell,
  type KeyRequestSettings,
  type KeyView,
  type OperatorApi,
  OperatorError,
  requireAllowanceChoice,
  requireDecisionCategory,
  requireOrigins,
  requirePlanName,
  type RolledKey,
} from '@quotes/accounts';
import { fieldText, type Html, html } from '../consoleHtml.js';
import { count } from './layout.js';

/**
 * The changes the console makes to a key, each through the operator API (so the CLI's rules and
 * audit apply): the form that asks for it, what it reads from the form (by the operator's own
 * input rules, the same functions the CLI calls), the sentence the confirm step shows, and the call.
 */
export type ActionInput = Partial<
  Record<'reason' | 'category' | 'until' | 'plan' | 'monthlyCalls' | 'unlimited' | 'origins', string>
>;

/** What an action reads from its form; each field only where that action has it. */
export interface ActionArguments {
  until?: Date;
  plan?: string;
  monthlyCalls?: number | null;
  unlimited?: boolean;
  category?: DecisionCategory;
  origins?: string[];
}

export interface KeyAction {
  title: string;
  /** The form's values as the action takes them; throws an OperatorError naming the field. */
  read(input: ActionInput): ActionArguments;
  /** What the confirm step asks, in a sentence, of input that was read. */
  summary(key: KeyView, input: ActionInput, args: ActionArguments): string;
  /** The fields of the action beside the reason, filled with `input`. */
  fields(key: KeyView, input: ActionInput): Html;
  run(
    operator: OperatorApi,
    key: KeyView,
    args: ActionArguments,
    input: ActionInput,
    /** How the holder is mailed (the console's mail settings); absent, the console was started without them. */
    mail?: Pick<KeyRequestSettings, 'mailer' | 'publicBaseUrl'>,
  ): Promise<{ issued?: RolledKey }>;
  /** Said on the key's page once done. */
  done: string;
}

const originsOf = (text: string | undefined) =>
  (text ?? '')
    .split(/\s+/)
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');

/** The renew form's day: the calendar rule the CLI's --until follows (domain/calendarDate.ts). */
function untilOf(text: string | undefined): Date {
  const date = readCalendarDate(text ?? '');
  if ('error' in date) throw new OperatorError(`until: ${date.error} (the key runs to the end of that day, UTC)`);
  return endOfDay(date.value);
}

/** The console's words for a per-key plan's allowance (operatorInput's requireAllowanceChoice). */
export const allowanceFields = { calls: '"monthly calls"', unlimited: '"unlimited"' };

/** The category a holder reads of a decision (revocation, rejection): the fixed list, nothing typed. */
export function categorySelect(selected: string | undefined, id = 'category'): Html {
  return html`<label for="${id}">Category (what the holder is told)<select id="${id}" name="category" required>
<option value=""${selected ? '' : html` selected`}>choose…</option>${decisionCategories.map(
    (category) =>
      html`<option value="${category.id}"${category.id === selected ? html` selected` : ''}>${category.words}</option>`,
  )}</select></label>`;
}

export const keyActions: Readonly<Record<string, KeyAction>> = {
  revoke: {
    title: 'Revoke',
    summary: (key, _input, args) =>
      `Revoke ${key.id} (${key.prefix}..., ${key.client}), telling its holder "${decisionCategoryWords(args.category)}"? Running servers refuse it within a second; it cannot be undone.`,
    read: (input) => ({ category: requireDecisionCategory(input.category) }),
    fields: (_key, input) => categorySelect(input.category),
    run: async (operator, key, args, input) => {
      await operator.revokeKey(key.id, input.reason, args.category);
      return {};
    },
    done: 'Revoked: running servers refuse the key.',
  },
  roll: {
    title: 'Roll the secret',
    summary: (key) =>
      `Give ${key.id} (${key.client}) a new secret? The current one (${key.prefix}...) is refused from then on${
        key.previousSecretUntil
          ? `; the one before it keeps working until ${key.previousSecretUntil}, the end of its grace`
          : ''
      }; the new one is shown once, to hand to the customer.`,
    read: () => ({}),
    fields: () => html``,
    run: async (operator, key) => ({ issued: await operator.rollKey(key.id) }),
    done: 'Rolled.',
  },
  renew: {
    title: 'Renew',
    read: (input) => ({ until: untilOf(input.until) }),
    summary: (key, _input, args) =>
      `Extend ${key.id} (${key.client}) to the end of ${args.until!.toISOString().slice(0, 10)} (UTC)?`,
    fields: (_key, input) =>
      html`<label for="until">Until (to the end of that day, UTC)<input type="date" id="until" name="until" required value="${input.until ?? ''}"></label>`,
    run: async (operator, key, args, _input, mail) => {
      // The holder is told as the CLI's keys renew tells them (notices/renewalNotice.ts).
      if (mail) await renewAndTell(operator, key.id, args.until!, mail);
      else await operator.renewKey(key.id, args.until!);
      return {};
    },
    done: "Renewed; the key's holder is mailed the new expiry.",
  },
  'change-plan': {
    title: 'Change plan',
    read: (input) => {
      const plan = requirePlanName(input.plan ?? '');
      const unlimited = input.unlimited !== undefined;
      // Read for the confirm step's sentence; the action applies the same rule again when run.
      const monthlyCalls = requireAllowanceChoice(
        plan,
        { monthlyCalls: input.monthlyCalls, unlimited },
        allowanceFields,
      );
      return { plan, monthlyCalls, unlimited };
    },
    summary: (key, _input, args) =>
      `Move ${key.id} (${key.client}) from ${key.plan} to ${args.plan}${
        args.plan === 'enterprise' ? ` with ${count(args.monthlyCalls ?? null)} calls a month` : ''
      }?`,
    fields: (key, input) => html`<label for="plan">Plan<select id="plan" name="plan">${taxonomy.plans.map(
      (plan) =>
        html`<option value="${plan}"${plan === (input.plan ?? key.plan) ? html` selected` : ''}>${plan}</option>`,
    )}</select></label>
<label for="monthlyCalls">Monthly calls (enterprise only)<input type="text" id="monthlyCalls" name="monthlyCalls" inputmode="numeric" value="${input.monthlyCalls ?? ''}"></label>
<label for="unlimited" class="check"><input type="checkbox" id="unlimited" name="unlimited" value="yes"${input.unlimited === undefined ? '' : html` checked`}> Unlimited (enterprise only: no monthly allowance)</label>`,
    run: async (operator, key, args, _input, mail) => {
      const change = { plan: args.plan!, monthlyCalls: args.monthlyCalls, unlimited: args.unlimited };
      // The holder is told as a holder's own request's approval tells them (notices/planChangeNotice.ts).
      if (mail) await changePlanAndTell(operator, key.id, change, mail);
      else await operator.changePlan(key.id, change);
      return {};
    },
    done: "Plan changed; the key's holder is mailed the new plan.",
  },
  'set-origins': {
    title: 'Set browser origins',
    read: (input) => ({ origins: requireOrigins(originsOf(input.origins)) }),
    summary: (key, _input, args) => {
      const origins = args.origins ?? [];
      return `Allow ${key.id} (${key.client}) from ${origins.length ? origins.join(', ') : 'no browser origin'} only (replacing ${key.allowedOrigins.join(', ') || 'none'})?`;
    },
    fields: (key, input) =>
      html`<label for="origins">Origins, one a line (scheme://host[:port], :* for any port; empty: none)<textarea id="origins" name="origins" rows="3">${fieldText(input.origins ?? key.allowedOrigins.join('\n'))}</textarea></label>`,
    run: async (operator, key, args) => {
      await operator.setAllowedOrigins(key.id, args.origins ?? []);
      return {};
    },
    done: 'Origins set.',
  },
};

/** The action's input from a query string or form, unknown names dropped. */
export function actionInputOf(values: Record<string, unknown>): ActionInput {
  const input: ActionInput = {};
  for (const name of ['reason', 'category', 'until', 'plan', 'monthlyCalls', 'unlimited', 'origins'] as const) {
    const value = values[name];
    if (typeof value === 'string' && value.length <= 4000) input[name] = value;
  }
  return input;
}
