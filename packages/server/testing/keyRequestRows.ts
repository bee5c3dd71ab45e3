import type { TestDatabase } from '@quotes/database/testing';

/** Confirmed key requests waiting for the operator, as the form leaves them, each from its own address on one /24. */
export async function insertPendingRequests(
  database: TestDatabase,
  ids: readonly string[],
  options: { plan: string; network: string },
): Promise<void> {
  await database.db
    .insertInto('key_requests')
    .values(
      ids.map((id, n) => ({
        id,
        email: `asker${n}@example.net`,
        name: `Asker ${n}`,
        application: 'Quotes app',
        plan_id: options.plan,
        use: 'a daily quote',
        client_address: `${options.network}.${n + 1}`,
        client_network: `${options.network}.0/24`,
        status: 'pending' as const,
        // Pending means confirmed: the address was proven, the request waits for the operator.
        confirmed_at: new Date(),
        token_hash: null,
        token_expires_at: new Date(Date.now() + 86_400_000),
        created_at: new Date(),
      })),
    )
    .execute();
}
