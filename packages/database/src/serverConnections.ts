import type { DatabaseOptions } from './database.js';

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
}): Pick<DatabaseOptions, 'acquireTimeoutMs' | 'statementTimeoutMs' | 'genericPlans' | 'keptConnections'> {
  return {
    acquireTimeoutMs: deadlines.DATABASE_ACQUIRE_TIMEOUT_MS,
    statementTimeoutMs: deadlines.DATABASE_STATEMENT_TIMEOUT_MS,
    genericPlans: true,
    // A handful of calls at once use two connections each (the count and the read beside it).
    keptConnections: 8,
  };
}
