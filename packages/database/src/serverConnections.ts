import type { DatabaseOptions } from './database.js';

/**
 * How a server of the service connects (main.ts, and startServer given a configuration): each
 * statement planned once for any parameters, and a few connections kept open. Test databases
 * connect the same way (testing/testDatabase.ts), so a statement that fails only under these
 * settings fails in a test.
 */
export function serverConnections(deadlines: {
  acquireTimeoutMs?: number;
  statementTimeoutMs?: number;
}): Pick<DatabaseOptions, 'acquireTimeoutMs' | 'statementTimeoutMs' | 'genericPlans' | 'keptConnections'> {
  // A handful of calls at once use two connections each (the count and the read beside it).
  return { ...deadlines, genericPlans: true, keptConnections: 8 };
}
