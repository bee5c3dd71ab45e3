import { taxonomy } from '@quotes/contract';
import { endOfDayUtc } from '@quotes/accounts/rules';
import type { IssuedKey, KeyView, OperatorApi } from '@quotes/accounts';
import { OperatorError } from '@quotes/accounts';
import { type Html, html } from '@quotes/text-rules';

/**
 * The changes the console makes to a key, each through the operator API (so the CLI's rules and
 * audit apply): the form that asks for it, the sentence the confirm step shows, and the call.
 */
export type ActionInput = Partial<Record<'reason' | 'until' | 'plan' | 'monthlyCalls' | 'origins', string>>;

export interface KeyAction {
  title: string;
  /** What the confirm step asks, in a sentence. */
  summary(key: KeyView, input: ActionInput): string;
  /** The fields of the action beside the reason, filled with `input`. */
  fields(key: KeyView, input: ActionInput): Html;
  run(operator: OperatorApi, key: KeyView, input: ActionInput): Promise<{ issued?: IssuedKey }>;
  /** Said on the key's page once done. */
  done: string;
}

const originsOf = (text: string | undefined) =>
  (text ?? '')
    .split(/\s+/)
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');

function untilOf(text: string | undefined): Date {
  if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`)))
    throw new OperatorError('until must be a date, YYYY-MM-DD (the key runs to the end of that day, UTC)');
  return endOfDayUtc(text);
}

function monthlyCallsOf(text: string | undefined): number | null {
  if (text === undefined || text.trim() === '') return null;
  if (!/^\d{1,10}$/.test(text.trim()))
    throw new OperatorError('monthly calls must be a whole number (empty: unlimited)');
  return Number(text.trim());
}

export const keyActions: Readonly<Record<string, KeyAction>> = {
  revoke: {
    title: 'Revoke',
    summary: (key) =>
      `Revoke ${key.id} (${key.prefix}..., ${key.client})? Running servers refuse it within a second; it cannot be undone.`,
    fields: () => html``,
    run: async (operator, key, input) => {
      await operator.revokeKey(key.id, input.reason);
      return {};
    },
    done: 'Revoked: running servers refuse the key.',
  },
  roll: {
    title: 'Roll the secret',
    summary: (key) =>
      `Give ${key.id} (${key.client}) a new secret? The current one (${key.prefix}...) is refused from then on; the new one is shown once, to hand to the customer.`,
    fields: () => html``,
    run: async (operator, key) => ({ issued: await operator.rollKey(key.id) }),
    done: 'Rolled: the old secret is refused.',
  },
  renew: {
    title: 'Renew',
    summary: (key, input) => `Extend ${key.id} (${key.client}) to the end of ${input.until ?? '?'} (UTC)?`,
    fields: (_key, input) =>
      html`<label for="until">Until (to the end of that day, UTC)<input type="date" id="until" name="until" required value="${input.until ?? ''}"></label>`,
    run: async (operator, key, input) => {
      await operator.renewKey(key.id, untilOf(input.until));
      return {};
    },
    done: 'Renewed.',
  },
  'change-plan': {
    title: 'Change plan',
    summary: (key, input) =>
      `Move ${key.id} (${key.client}) from ${key.plan} to ${input.plan ?? '?'}${
        input.plan === 'enterprise'
          ? ` with ${input.monthlyCalls?.trim() ? input.monthlyCalls : 'unlimited'} calls a month`
          : ''
      }?`,
    fields: (key, input) => html`<label for="plan">Plan<select id="plan" name="plan">${taxonomy.plans.map(
      (plan) =>
        html`<option value="${plan}"${plan === (input.plan ?? key.plan) ? html` selected` : ''}>${plan}</option>`,
    )}</select></label>
<label for="monthlyCalls">Monthly calls (enterprise only; empty: unlimited)<input type="text" id="monthlyCalls" name="monthlyCalls" inputmode="numeric" value="${input.monthlyCalls ?? ''}"></label>`,
    run: async (operator, key, input) => {
      if (!input.plan) throw new OperatorError('plan is required');
      await operator.changePlan(key.id, {
        plan: input.plan,
        monthlyCalls: input.plan === 'enterprise' ? monthlyCallsOf(input.monthlyCalls) : null,
      });
      return {};
    },
    done: 'Plan changed.',
  },
  'set-origins': {
    title: 'Set browser origins',
    summary: (key, input) => {
      const origins = originsOf(input.origins);
      return `Allow ${key.id} (${key.client}) from ${origins.length ? origins.join(', ') : 'no browser origin'} only (replacing ${key.allowedOrigins.join(', ') || 'none'})?`;
    },
    fields: (key, input) =>
      html`<label for="origins">Origins, one a line (scheme://host[:port], :* for any port; empty: none)<textarea id="origins" name="origins" rows="3">${input.origins ?? key.allowedOrigins.join('\n')}</textarea></label>`,
    run: async (operator, key, input) => {
      await operator.setAllowedOrigins(key.id, originsOf(input.origins));
      return {};
    },
    done: 'Origins set.',
  },
};

/** The action's input from a query string or form, unknown names dropped. */
export function actionInputOf(values: Record<string, unknown>): ActionInput {
  const input: ActionInput = {};
  for (const name of ['reason', 'until', 'plan', 'monthlyCalls', 'origins'] as const) {
    const value = values[name];
    if (typeof value === 'string' && value.length <= 4000) input[name] = value;
  }
  return input;
}
