import type { Kysely } from 'kysely';
import type { Database } from '@quotes/database';
import { inTransaction } from '../data/transaction.js';

import { auditActions } from './auditActions.js';
import { keyActions } from './keyActions.js';
import { type OperatorOptions, operatorContext } from './operatorContext.js';
import type { OperatorApi } from './operatorTypes.js';
import { usageActions } from './usageActions.js';

export type { KeyOwner, KeyState } from '../data/keyOwners.js';
export type { Signal } from '../domain/usageSignals.js';
export { type OperatorOptions, TrialTakenError } from './operatorContext.js';
export { OperatorError, type OperatorErrorCode } from './operatorError.js';
export * from './operatorTypes.js';

/**
 * The operator's work on keys and usage, shared by the `quotes-admin` CLI and by anything that
 * provisions keys programmatically (the conformance hooks): one implementation of the rules.
 */
export function createOperatorApi(database: { db: Kysely<Database> }, options: OperatorOptions = {}): OperatorApi {
  const context = operatorContext(database, options);
  return {
    ...keyActions(context),
    ...usageActions(context),
    ...auditActions(context),
    async atomically(work) {
      const changedKeys: string[] = [];
      const result = await inTransaction(context.db, (trx) =>
        work(createOperatorApi({ db: trx }, { ...options, onKeyChanged: (id) => changedKeys.push(id) }), trx),
      );
      for (const id of changedKeys) context.changed(id);
      return result;
    },
  };
}
