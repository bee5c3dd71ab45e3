import { rules } from '@quotes/contract';
import { allowanceSentence } from '../domain/allowanceWording.js';
import { planChangedMessage } from '../mail/holderMessages.js';
import type { Delivery, Mailer } from '../mail/mailer.js';
import { requirePublicBaseUrl } from '../mail/publicAddress.js';
import type { KeyView, OperatorApi } from '../operator/operatorApi.js';

/** The key's own allowance in the plan's words. */
function allowanceOf(view: KeyView): string {
  if (view.monthlyCalls === null) return 'unlimited calls';
  const plan = rules.planById.get(view.plan);
  return plan
    ? allowanceSentence(plan, view.monthlyCalls)
    : `${view.monthlyCalls.toLocaleString('en-US')} calls a month`;
}

/**
 * An operator's plan change, and the mail that tells the key's holder (a key without an address
 * has nobody to tell): what every surface (the CLI's `keys change-plan`, the console) calls. The
 * plan's rules are checked first, as `changePlan` orders them; the address for the mail's link
 * is required before the change commits, so a change is never made that its holder cannot be
 * told of. The mail goes after the commit.
 */
export async function changePlanAndTell(
  operator: OperatorApi,
  keyId: string,
  change: Parameters<OperatorApi['changePlan']>[1],
  mail: { readonly mailer: Mailer; readonly publicBaseUrl: string | undefined },
): Promise<{ key: KeyView; delivery: Delivery | null }> {
  const { from, key, baseUrl } = await operator.atomically(async (inside) => {
    // A key that does not exist is refused by changePlan itself, after the plan's rules.
    const before = await inside.showKey(keyId).catch(() => undefined);
    const key = await inside.changePlan(keyId, change);
    const baseUrl = key.email === null ? '' : requirePublicBaseUrl(mail.publicBaseUrl);
    return { from: before?.plan ?? key.plan, key, baseUrl };
  });
  if (key.email === null) return { key, delivery: null };
  const delivery = await mail.mailer.send(
    planChangedMessage(
      { id: key.id, prefix: key.prefix, client: key.client, plan: key.plan, email: key.email },
      { from, allowance: allowanceOf(key), expiresAt: key.expiresAt },
      baseUrl,
    ),
  );
  return { key, delivery };
}
