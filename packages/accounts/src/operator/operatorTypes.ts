import type { Kysely } from 'kysely';
import type { KeyOwner, KeyState } from '../data/keyOwners.js';
import type { HistoryRow } from '../data/usageHistoryQueries.js';
import type { Signal, SignalThresholds } from '../domain/usageSignals.js';
import type { Database } from '@quotes/database';
import type { AuditEntry } from '../data/operatorAudit.js';

/**
 * One trial per person and per client: a trial key issued to the same canonical address or
 * client within this many days refuses another (the README's "one trial per person").
 */
export const trialLookbackDays = 365;

export interface CreateKeyInput {
  client: string;
  plan: string;
  email?: string | null;
  /** Optional expiry; a plan with a validity (trial) defaults to issue + validity and cannot exceed it. */
  expiresAt?: Date | null;
  /** Plans with per-key limits only: calls per month (a number, or its text from a form); such a plan needs this or `unlimited`. */
  monthlyCalls?: number | string | null;
  /** Plans with per-key limits only: no monthly allowance, chosen out loud. */
  unlimited?: boolean;
  /** Plans with per-key limits only: largest page, 1 to the contract's page ceiling (absent: the plan's). */
  maxLimit?: number | null;
  /** Issue a trial even though this person or client had one recently (the operator's explicit override). */
  allowAnotherTrial?: boolean;
  /** Accept an expiry in the past: a key that is expired from the start (test fixtures only). */
  allowPastExpiry?: boolean;
  /** Browser origins the key may be used from (`scheme://host[:port]`, or `:*` for any port); none by default. */
  allowedOrigins?: readonly string[];
}

export interface KeyFilterInput {
  email?: string;
  client?: string;
  plan?: string;
  state?: KeyState;
}

export interface ChangePlanInput {
  plan: string;
  /** As at creation: a plan with per-key limits needs this or `unlimited`. */
  monthlyCalls?: number | string | null;
  unlimited?: boolean;
  maxLimit?: number | null;
  allowAnotherTrial?: boolean;
}

/** A key whose calls this month reached a threshold of its allowance. */
export interface UsageAlert extends UsageView {
  email: string | null;
  /** 80 or 100: the highest threshold reached. */
  threshold: number;
  percent: number;
  /** The allowance period the figures are of (ISO instants): it resets, or the trial ends, at its end. */
  periodStart: string;
  periodEnd: string;
  expiresAt: string | null;
  /** Whether this threshold was already mailed in this period. */
  sent: boolean;
  /** Whether the holder gets the allowance mails (they can turn them off). */
  mails: boolean;
}

/** Shown once, at creation: the only time the key itself exists outside the caller's hands. */
export interface IssuedKey {
  id: string;
  key: string;
  client: string;
  plan: string;
  expires_at: string | null;
  prefix: string;
}

/** A rolled key: the new secret, and which earlier secret still works until when (decision 0049). */
export interface RolledKey extends IssuedKey {
  previousSecretUntil: string | null;
  /** `replaced`: the secret just replaced, for the grace chosen; `earlier`: the one before it, its running grace kept. */
  previousSecretIs: 'replaced' | 'earlier' | null;
}

export interface KeyView {
  id: string;
  prefix: string;
  client: string;
  email: string | null;
  plan: string;
  /** 'expired' is derived from the clock; the stored status is active or revoked. */
  state: 'active' | 'revoked' | 'expired';
  monthlyCalls: number | null;
  maxLimit: number;
  filtersPerCall: number;
  faithFilter: boolean;
  expiresAt: string | null;
  revokedAt: string | null;
  /** The operator's own words: for the operator's eyes (CLI, console, audit) only. */
  revokedReason: string | null;
  /** What the holder reads: a decision category (domain/decisionCategories.ts). */
  revokedCategory: string | null;
  createdAt: string;
  allowedOrigins: string[];
  /** Until when a rolled key's previous secret still works; null when none does any more. */
  previousSecretUntil: string | null;
}

/** A key's use of its allowance over the period in force: `calls` and `remaining` over the whole period. */
export interface PeriodUsageView extends UsageView {
  readonly periodStart: string;
  /** When the allowance resets, or a trial's ends. */
  readonly periodEnd: string;
}

export interface UsageView {
  keyId: string;
  /** The start of the key the customer holds (`qk_` and 8 characters): how they recognise it. */
  prefix: string;
  /** The key's state now, whatever month the usage is of. */
  state: KeyView['state'];
  client: string;
  plan: string;
  /** 'YYYY-MM' */
  month: string;
  calls: number;
  limit: number | null;
  remaining: number | null;
}

export interface OperatorApi {
  createKey(input: CreateKeyInput): Promise<IssuedKey>;
  /** Keys matching every filter given, each with this month's calls. */
  listKeys(filter?: KeyFilterInput): Promise<(KeyView & { callsThisMonth: number })[]>;
  /** Revokes every active key of a person (canonical address) or client, in one transaction; each holder's mail is due with it. */
  revokeKeysOf(
    owner: { email?: string; client?: string },
    reason?: string | null,
    category?: string,
  ): Promise<KeyView[]>;
  changePlan(id: string, change: ChangePlanInput): Promise<KeyView>;
  /**
   * A new secret for the same key record and usage; the old secret is refused from the commit
   * on, or after `graceMs` (at most 24 hours: domain/rollGrace.ts).
   */
  rollKey(id: string, options?: { graceMs?: number }): Promise<RolledKey>;
  /** Replaces the browser origins a key may be used from (an empty list: none). */
  setAllowedOrigins(id: string, origins: readonly string[]): Promise<KeyView>;
  /** Everyone holding an active key, each address once. */
  activeOwners(): Promise<KeyOwner[]>;
  /** Keys at 80% and 100% of their allowance period in force at the end of a month (default: now), with whether the holder was mailed. */
  usageAlerts(month?: string): Promise<UsageAlert[]>;
  /**
   * Mails each alert not yet sent (once per key, period and threshold: the holder notices the
   * servers send too), except to holders who turned them off; an alert whose mail fails is put
   * back for the next run. Returns the alerts sent.
   */
  sendUsageAlerts(month: string | undefined, send: (alert: UsageAlert) => Promise<void>): Promise<UsageAlert[]>;
  /** The key, and its calls over the allowance period in force (a calendar month, or a trial's 30 days). */
  showKey(id: string): Promise<KeyView & { usage: PeriodUsageView }>;
  /**
   * Revokes a key with the operator's `reason` (kept for the operator) and the `category` its
   * holder reads (domain/decisionCategories.ts; default `other`, and always `requested-by-holder`
   * when the holder closes it); the holder's mail is due in the same transaction.
   */
  revokeKey(id: string, reason?: string | null, category?: string): Promise<KeyView>;
  renewKey(id: string, until: Date): Promise<KeyView>;
  usage(id: string, month?: string): Promise<UsageView>;
  usageReport(month?: string): Promise<UsageView[]>;
  /**
   * A key's calls per hour or UTC day and outcome in [from, to) (default: this month so far);
   * the id `unknown` gives the calls whose key was missing or not recognised.
   */
  usageHistory(id: string, range: { from?: Date; to?: Date; by: 'hour' | 'day' }): Promise<HistoryEntry[]>;
  /** Signs of broken terms in a month (default: this one): coverage, sweeps, sharing, trial rotation, each with its evidence. */
  usageSignals(month?: string, thresholds?: SignalThresholds): Promise<Signal[]>;
  /**
   * Hands the month's signs not mailed before (once per key, signal and month) to `send`, in one
   * transaction with their claim and audit entry: a failed mail leaves them to the next run.
   * Returns the signs sent (none when every one was mailed before).
   */
  sendUsageSignals(
    month: string | undefined,
    thresholds: SignalThresholds | undefined,
    send: (signals: Signal[]) => Promise<void>,
  ): Promise<Signal[]>;
  /** Records an action taken outside this API (corpus loads, announcements) in the audit, as this operator. */
  recordAction(
    action: Omit<AuditEntry, 'actor' | 'reason' | 'keyId'> & { keyId?: string | null; reason?: string | null },
  ): Promise<void>;
  /** The audit, oldest first: every key, corpus and mail action with its actor, target, before, after and reason. */
  auditTrail(filter?: { keyId?: string; since?: Date; limit?: number }): Promise<AuditView[]>;
  /**
   * Runs `work` as one transaction, given an operator API bound to it and the transaction for the
   * caller's own writes: its actions, their audit entries and those writes commit together or not
   * at all; running servers hear of the keys it changed at the commit.
   */
  atomically<T>(work: (operator: OperatorApi, db: Kysely<Database>) => Promise<T>): Promise<T>;
}

/** One entry of the audit as shown to the operator. */
export interface AuditView extends Omit<AuditEntry, 'before' | 'after'> {
  id: string;
  at: string;
  before: unknown;
  after: unknown;
}

/** One row of a key's usage history: the period's start (ISO, UTC), an outcome and its calls. */
export interface HistoryEntry {
  start: string;
  outcome: HistoryRow['outcome'];
  calls: number;
}
