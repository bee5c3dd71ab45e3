import { isoSeconds } from '../domain/calendarMonth.js';
import { listAuditEntries } from '../data/operatorAudit.js';

import type { OperatorApi } from './operatorTypes.js';
import { type OperatorContext, requireDate, requireWholeNumber } from './operatorContext.js';

/** The audit: actions taken outside this API recorded, and the trail read back. */
export function auditActions(context: OperatorContext): Pick<OperatorApi, 'recordAction' | 'auditTrail'> {
  const { db, audit } = context;
  return {
    async recordAction(action) {
      await audit(db, [{ ...action, keyId: action.keyId ?? null }]);
    },

    async auditTrail(filter = {}) {
      if (filter.since !== undefined) requireDate(filter.since, 'since');
      const limit = filter.limit === undefined ? 1000 : requireWholeNumber(filter.limit, 'limit', 1, 100_000);
      const entries = await listAuditEntries(db, { keyId: filter.keyId, since: filter.since, limit });
      return entries.map((entry) => ({ ...entry, at: isoSeconds(entry.at) }));
    },
  };
}
