import type { Database } from '@quotes/database';
import type { Kysely } from 'kysely';
import { setCallsInMonth } from './data/monthlyUsage.js';
import { inTransaction } from './data/transaction.js';
import {
  monthOf,
  type OperatorOptions,
  operatorContext,
  requireWholeNumber,
  usageOf,
} from './operator/operatorContext.js';
import type { UsageView } from './operator/operatorTypes.js';

/**
 * Sets a key's count for a month, audited as `usage set`: for tests and the conformance suite's
 * local target, which need an allowance used up (the 429) without making the calls. No surface
 * of the service offers it.
 */
export async function setUsage(
  database: { db: Kysely<Database> },
  id: string,
  calls: number,
  month?: string,
  options: OperatorOptions = {},
): Promise<UsageView> {
  const { db, clock, audit, existing } = operatorContext(database, options);
  requireWholeNumber(calls, 'calls', 0, 2_147_483_647);
  const calendarMonth = monthOf(month, clock());
  const record = await existing(id);
  await inTransaction(db, async (trx) => {
    const before = await setCallsInMonth(trx, id, calendarMonth.key, calls);
    await audit(trx, [
      {
        action: 'usage set',
        target: id,
        keyId: id,
        before: { month: calendarMonth.key.slice(0, 7), calls: before },
        after: { month: calendarMonth.key.slice(0, 7), calls },
      },
    ]);
  });
  return usageOf(record, calendarMonth, calls, clock());
}
