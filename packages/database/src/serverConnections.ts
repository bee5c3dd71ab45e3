import type { DatabaseOptions } from './database.js';

type ServerConnections = Pick<
  DatabaseOptions,
  'acquireTimeoutMs' | 'statementTimeoutMs' | 'genericPlans' | 'keptConnections' | 'poolSize'
>;

/**
 * How a server of the service connects, with the configuration's deadlines (the server's
 * openServiceDatabase, the conformance suite's local target): each
 * statement planned once for any parameters, and a few connections kept open. Test databases
 * connect the same way (testing/testDatabase.ts), so a statement that fails only under these
 * settings fails in a test.
 */
export function serverConnections(deadlines: {
  readonly DATABASE_ACQUIRE_TIMEOUT_MS?: number;
  readonly DATABASE_STATEMENT_TIMEOUT_MS?: number;
}): Omit<ServerConnections, 'poolSize'> {
  return {
    acquireTimeoutMs: deadlines.DATABASE_ACQUIRE_TIMEOUT_MS,
    statementTimeoutMs: deadlines.DATABASE_STATEMENT_TIMEOUT_MS,
    genericPlans: true,
    // A handful of calls at once use two connections each (the count and the read beside it).
    keptConnections: 8,
  };
}

/**
 * The public pages' own pool (key requests, confirmations, holders' sign-in): the server's
 * deadlines and plans on PUBLIC_PAGES_DATABASE_CONNECTIONS connections of its own, so a flood
 * of strangers waits for these and never for a connection the API's calls need.
 */
export function publicPageConnections(
  config: Parameters<typeof serverConnections>[0] & { readonly PUBLIC_PAGES_DATABASE_CONNECTIONS: number },
): ServerConnections {
  return {
    ...serverConnections(config),
    poolSize: config.PUBLIC_PAGES_DATABASE_CONNECTIONS,
    keptConnections: 1,
  };
}
