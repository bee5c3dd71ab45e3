import { renewedMessage } from '../mail/holderMessages.js';
import type { Delivery, Mailer } from '../mail/mailer.js';
import { requirePublicBaseUrl } from '../mail/publicAddress.js';
import type { KeyView, OperatorApi } from '../operator/operatorApi.js';

/**
 * An operator's renewal, and the mail that tells the key's holder (a key without an address has
 * nobody to tell): what every surface (the CLI's `keys renew`, the console) calls. As with a plan
 * change (planChangeNotice.ts), the address for the mail's link is required before the renewal
 * commits, and the mail goes after the commit.
 */
export async function renewAndTell(
  operator: OperatorApi,
  keyId: string,
  until: Date,
  mail: { readonly mailer: Mailer; readonly publicBaseUrl: string | undefined },
): Promise<{ key: KeyView; delivery: Delivery | null }> {
  const { key, baseUrl } = await operator.atomically(async (inside) => {
    const key = await inside.renewKey(keyId, until);
    const baseUrl = key.email === null ? '' : requirePublicBaseUrl(mail.publicBaseUrl);
    return { key, baseUrl };
  });
  if (key.email === null || key.expiresAt === null) return { key, delivery: null };
  const delivery = await mail.mailer.send(
    renewedMessage(
      { id: key.id, prefix: key.prefix, client: key.client, plan: key.plan, email: key.email },
      key.expiresAt,
      baseUrl,
    ),
  );
  return { key, delivery };
}
