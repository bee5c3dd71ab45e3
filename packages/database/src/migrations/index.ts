import type { Migration } from 'kysely/migration';
import * as plansKeysUsage from './20261123T0900_plans_keys_usage.js';
import * as quotes from './20261123T0901_quotes.js';
import * as monthlyUsageLastGrant from './20261123T1000_monthly_usage_last_grant.js';
import * as quoteJson from './20261123T1100_quote_json.js';
import * as keyOwners from './20261123T1600_key_owners.js';
import * as quoteTagCode from './20261123T1800_quote_tag_code.js';
import * as keyAllowedOrigins from './20261123T1900_key_allowed_origins.js';
import * as keyRequests from './20261126T0600_key_requests.js';
import * as usageHistory from './20261126T0700_usage_history.js';
import * as operatorAudit from './20261126T0701_operator_audit.js';
import * as usageSightings from './20261126T0702_usage_sightings.js';
import * as usageCoverage from './20261126T0910_usage_coverage.js';
import * as usageSignalAlerts from './20261126T0911_usage_signal_alerts.js';
import * as allowanceLeases from './20261126T1000_allowance_leases.js';
import * as keyRequestNetworks from './20261126T1200_key_request_networks.js';
import * as consoleSignInLinks from './20261127T0100_console_sign_in_links.js';
import * as holderAccounts from './20261127T0300_holder_accounts.js';
import * as holderNotices from './20261127T0400_holder_notices.js';
import * as holderActionWindows from './20261129T0500_holder_action_windows.js';
import * as unprovenMailHours from './20261129T0500_unproven_mail_hours.js';
import * as operatorNotices from './20261129T0510_operator_notices.js';
import * as decisionCategories from './20261129T0600_decision_categories.js';
import * as proofOfWork from './20261129T0900_proof_of_work.js';

/**
 * Every migration, by name; names sort in the order they apply. Listed statically (rather than
 * read from the folder) so the same code runs from src under vitest and from dist under node.
 * Once landed, a migration is never edited: add a new file instead.
 */
export const migrations: Record<string, Migration> = {
  '20261123T0900_plans_keys_usage': plansKeysUsage,
  '20261123T0901_quotes': quotes,
  '20261123T1000_monthly_usage_last_grant': monthlyUsageLastGrant,
  '20261123T1100_quote_json': quoteJson,
  '20261123T1600_key_owners': keyOwners,
  '20261123T1800_quote_tag_code': quoteTagCode,
  '20261123T1900_key_allowed_origins': keyAllowedOrigins,
  '20261126T0600_key_requests': keyRequests,
  '20261126T0700_usage_history': usageHistory,
  '20261126T0701_operator_audit': operatorAudit,
  '20261126T0702_usage_sightings': usageSightings,
  '20261126T0910_usage_coverage': usageCoverage,
  '20261126T0911_usage_signal_alerts': usageSignalAlerts,
  '20261126T1000_allowance_leases': allowanceLeases,
  '20261126T1200_key_request_networks': keyRequestNetworks,
  '20261127T0100_console_sign_in_links': consoleSignInLinks,
  '20261127T0300_holder_accounts': holderAccounts,
  '20261127T0400_holder_notices': holderNotices,
  '20261129T0500_holder_action_windows': holderActionWindows,
  '20261129T0500_unproven_mail_hours': unprovenMailHours,
  '20261129T0510_operator_notices': operatorNotices,
  '20261129T0600_decision_categories': decisionCategories,
  '20261129T0900_proof_of_work': proofOfWork,
};
