import { type Kysely, sql } from 'kysely';
import type { Database } from '@quotes/database';

/**
 * The hourly bounds of what strangers may ask the service to mail (key requests, sign-in
 * links): the requests of the last hour from one address, one network, for one person, from one
 * site and from everyone, counted in one statement over the table's rows of the hour. The
 * caller counts under its own lock, in the transaction that then records the request, so two at
 * once cannot both take the last place.
 */
export interface AskedBy {
  readonly clientAddress: string;
  readonly clientNetwork: string;
  /** The block the network lies in (IPv4 /24, IPv6 /48): see domain/clientNetwork.ts. */
  readonly clientSite: string;
  readonly email: string;
}

export interface HourlyCount {
  readonly count: number;
  /** The oldest counted row's time: the bound frees a place an hour after it. */
  readonly oldest: Date | undefined;
}

export type HourlyCounts = Record<'address' | 'network' | 'email' | 'site' | 'everyone', HourlyCount>;

const hourMs = 3_600_000;

export async function hourlyCounts(
  trx: Kysely<Database>,
  table: 'key_requests' | 'account_sign_ins',
  asked: AskedBy,
  now: Date,
): Promise<HourlyCounts> {
  const matches = {
    address: sql<boolean>`client_address = ${asked.clientAddress}::inet`,
    network: sql<boolean>`client_network = ${asked.clientNetwork}::cidr`,
    email: sql<boolean>`email_canonical = canonical_email(${asked.email})`,
    site: sql<boolean>`client_address <<= ${asked.clientSite}::cidr`,
    everyone: sql<boolean>`true`,
  };
  let query = (trx as Kysely<Pick<Database, 'key_requests'>>)
    .selectFrom(table as 'key_requests')
    .select((eb) =>
      Object.entries(matches).flatMap(([name, match]) => [
        eb.fn.countAll<string>().filterWhere(match).as(`${name}_count`),
        eb.fn.min('created_at').filterWhere(match).as(`${name}_oldest`),
      ]),
    )
    .where('created_at', '>', new Date(now.getTime() - hourMs));
  // A signed-in holder's plan change or renewal mails no stranger: only requests for a key count.
  if (table === 'key_requests') query = query.where('kind', '=', 'key');
  const hour = await query.executeTakeFirstOrThrow();
  const row = hour as Record<string, unknown>;
  const counted = (name: string): HourlyCount => ({
    count: Number(row[`${name}_count`]),
    oldest: (row[`${name}_oldest`] ?? undefined) as Date | undefined,
  });
  return {
    address: counted('address'),
    network: counted('network'),
    email: counted('email'),
    site: counted('site'),
    everyone: counted('everyone'),
  };
}

/** Seconds until the oldest of the counted rows leaves the hour (at least 1). */
export function secondsUntilFree(oldest: Date | undefined, now: Date): number {
  if (!oldest) return 60;
  return Math.max(1, Math.ceil((oldest.getTime() + hourMs - now.getTime()) / 1000));
}

/** The first of the per-address, per-network and per-person bounds the counts reach, if any. */
export function boundReached(
  counts: HourlyCounts,
  limits: { readonly perAddressPerHour: number; readonly perNetworkPerHour: number; readonly perEmailPerHour: number },
  now: Date,
): { by: 'address' | 'network' | 'email'; retryAfterSeconds: number } | undefined {
  const checks = [
    ['address', limits.perAddressPerHour],
    ['network', limits.perNetworkPerHour],
    ['email', limits.perEmailPerHour],
  ] as const;
  for (const [by, limit] of checks) {
    const { count, oldest } = counts[by];
    if (count >= limit) return { by, retryAfterSeconds: secondsUntilFree(oldest, now) };
  }
  return undefined;
}
