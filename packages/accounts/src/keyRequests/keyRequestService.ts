import { hash } from 'node:crypto';
import { rules, taxonomy } from '@quotes/contract';
import type { Database, KeyRequestStatus } from '@quotes/database';
import type { Kysely } from 'kysely';
import MailChecker from 'mailchecker';
import {
  admitKeyRequest,
  type Admission,
  claimToken,
  findByLiveToken,
  findKeyRequest,
  type KeyRequestRow,
  listKeyRequests,
  networkTrialSince,
  type RequestBounds,
  setWaitingReasons,
  settleRequest,
} from '../data/keyRequests.js';
import { isoSeconds } from '../domain/calendarMonth.js';
import { clientNetworkOf } from '../domain/clientNetwork.js';
import type { Clock } from '../domain/clock.js';
import { networkLookbackDays, waitingReasons } from '../domain/keyRequestDecision.js';
import { randomBase62 } from '../keys/apiKeySecret.js';
import type { Logger } from '@quotes/service-base';
import {
  confirmationMessage,
  digestMessage,
  receivedMessage,
  rejectionMessage,
  type RequestSummary,
  withHtml,
} from '../mail/keyRequestMessages.js';
import type { Delivery, Mailer } from '../mail/mailer.js';
import { keyMessage } from '../mail/operatorMessages.js';
import { type IssuedKey, type OperatorApi, OperatorError, TrialTakenError } from '../operator/operatorApi.js';
import { requireText } from '../operator/operatorInput.js';

/** A request for a key as the contract's KeyRequest schema has it, trimmed and checked. */
export interface KeyRequestInput {
  readonly email: string;
  readonly name: string;
  readonly application: string;
  readonly plan: string;
  readonly use: string;
  /** The hidden field only robots fill. */
  readonly honeypot: boolean;
}

export interface KeyRequestSettings {
  /** Where links in mail point (PUBLIC_BASE_URL, else the listening address): never the request's Host. */
  readonly publicBaseUrl: string;
  readonly mailer: Mailer;
  readonly bounds: RequestBounds;
  /** Proxies whose X-Forwarded-For is believed (TRUST_PROXY). */
  readonly trustProxy?: readonly string[];
  /** Where the digest of pending requests goes (OPERATOR_EMAIL). */
  readonly operatorEmail?: string;
}

/** How long a confirmation link works. */
export const tokenValidHours = 24;
const hourMs = 3_600_000;
const dayMs = 86_400_000;

/** One request as the operator sees it. */
export interface KeyRequestView {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly application: string;
  /** The key's client: the application and who asked for it. */
  readonly client: string;
  readonly plan: string;
  readonly use: string;
  readonly status: KeyRequestStatus;
  readonly reasons: readonly string[];
  readonly clientAddress: string;
  readonly clientNetwork: string;
  readonly createdAt: string;
  readonly confirmedAt: string | null;
  readonly decidedAt: string | null;
  readonly keyId: string | null;
  readonly rejectionReason: string | null;
}

/** What confirming a link came to. */
export type Confirmation =
  | { readonly outcome: 'invalid' }
  | { readonly outcome: 'granted'; readonly request: KeyRequestView }
  | { readonly outcome: 'waiting'; readonly request: KeyRequestView };

export const tokenHash = (token: string): Buffer => hash('sha256', token, 'buffer');

/** The key's client name: what `keys list` shows and the one-trial rule compares. */
const clientOf = (row: Pick<KeyRequestRow, 'application' | 'name'>) => `${row.application} (${row.name})`;

function viewOf(row: KeyRequestRow): KeyRequestView {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    application: row.application,
    client: clientOf(row),
    plan: row.plan_id,
    use: row.use,
    status: row.status,
    reasons: row.reasons,
    clientAddress: row.client_address,
    clientNetwork: row.client_network,
    createdAt: isoSeconds(row.created_at),
    confirmedAt: row.confirmed_at && isoSeconds(row.confirmed_at),
    decidedAt: row.decided_at && isoSeconds(row.decided_at),
    keyId: row.key_id,
    rejectionReason: row.rejection_reason,
  };
}

const summaryOf = (view: KeyRequestView): RequestSummary => view;

/** The domain of an address when it is on the maintained list of disposable-mail domains (mailchecker). */
function disposableDomainOf(email: string): string | null {
  return MailChecker.isValid(email) ? null : (email.split('@')[1] ?? email).toLowerCase();
}

export interface KeyRequestService {
  readonly settings: KeyRequestSettings;
  /** Records a request and mails its confirmation link, unless a bound refuses it; a filled honeypot records nothing. */
  submit(input: KeyRequestInput, clientAddress: string): Promise<Admission>;
  /** The request a live link belongs to (for the confirmation page); the token stays unused. */
  awaitingConfirmation(token: string): Promise<KeyRequestView | undefined>;
  /** Uses a token: the address is proven, the request decided (a self-service key granted and mailed) or queued. */
  confirm(token: string): Promise<Confirmation>;
  list(status?: KeyRequestStatus): Promise<KeyRequestView[]>;
  show(id: string): Promise<KeyRequestView>;
  /** Issues the key (the same code as `keys create`); mailed when `send`. The key is returned for printing otherwise. */
  approve(
    id: string,
    options: { plan?: string; send: boolean },
  ): Promise<{ request: KeyRequestView; issued: IssuedKey; delivery: Delivery | null }>;
  reject(id: string, reason: string): Promise<{ request: KeyRequestView; delivery: Delivery }>;
  /** The pending requests, and the digest mailed to OPERATOR_EMAIL when `send`. */
  digest(send: boolean): Promise<{ pending: KeyRequestView[]; delivery: Delivery | null }>;
}

export function createKeyRequestService(
  database: { db: Kysely<Database> },
  operator: OperatorApi,
  settings: KeyRequestSettings,
  clock: Clock,
  log: Logger,
): KeyRequestService {
  const { db } = database;
  // Read when used: without PUBLIC_BASE_URL it is the listening address, known once listening.
  const baseUrl = () => settings.publicBaseUrl.replace(/\/+$/, '');

  async function existing(id: string): Promise<KeyRequestRow> {
    const row = await findKeyRequest(db, id);
    if (!row) throw new OperatorError(`no key request with id ${JSON.stringify(id)} (see: requests list)`);
    return row;
  }

  async function pending(id: string): Promise<KeyRequestRow> {
    const row = await existing(id);
    if (row.status !== 'pending')
      throw new OperatorError(`request ${id} is ${row.status}; only pending (confirmed) requests are decided`);
    return row;
  }

  /** Mails the key of an approved request (HTML alternative included). */
  async function mailKey(issued: IssuedKey): Promise<Delivery> {
    const view = await operator.showKey(issued.id);
    return settings.mailer.send(withHtml(keyMessage(issued, view, baseUrl(), false)));
  }

  /** Creates the key; a trial the person or client already had leaves the request pending, with that reason. */
  async function grant(
    row: KeyRequestRow,
    plan: string,
    allowAnotherTrial: boolean,
  ): Promise<IssuedKey | { refused: string }> {
    try {
      // The key, the request's settlement and both audit entries commit together or not at all.
      const issued = await operator.atomically(async (atomic, trx) => {
        const created = await atomic.createKey({
          client: clientOf(row),
          email: row.email,
          plan,
          allowAnotherTrial,
        });
        if (!(await settleRequest(trx, row.id, { status: 'approved', keyId: created.id, planId: plan }, clock())))
          throw new OperatorError(`request ${row.id} was settled meanwhile`);
        // The operator's approval or the service's own grant: the actor of the operator API says which.
        await atomic.recordAction({
          action: 'requests approve',
          target: row.id,
          keyId: created.id,
          before: { status: row.status, plan: row.plan_id, email: row.email },
          after: { status: 'approved', plan, keyId: created.id },
        });
        return created;
      });
      return issued;
    } catch (error) {
      if (!(error instanceof TrialTakenError)) throw error;
      const earlier = error.earlier;
      return {
        refused: `one trial per person: ${earlier.email ?? earlier.client} already had trial key ${earlier.id} (issued ${isoSeconds(earlier.createdAt)})`,
      };
    }
  }

  return {
    settings,

    async submit(input, clientAddress) {
      if (input.honeypot) return { admitted: true };
      const now = clock();
      const network = clientNetworkOf(clientAddress);
      const token = randomBase62(32);
      const id = `r_${randomBase62(12)}`;
      const admission = await admitKeyRequest(
        db,
        {
          id,
          email: input.email,
          name: input.name,
          application: input.application,
          planId: input.plan,
          use: input.use,
          clientAddress: network.address,
          clientNetwork: network.network,
          tokenHash: tokenHash(token),
          tokenExpiresAt: new Date(now.getTime() + tokenValidHours * hourMs),
        },
        settings.bounds,
        now,
      );
      if (!admission.admitted) return admission;
      const link = `${baseUrl()}/keys/confirm?token=${token}`;
      try {
        await settings.mailer.send(
          confirmationMessage(
            { id, email: input.email, name: input.name, application: input.application, plan: input.plan },
            link,
            tokenValidHours,
          ),
        );
      } catch (error) {
        // The answer stays the same: it must not tell which addresses can be mailed.
        log.error({ err: error, requestId: id }, 'the confirmation of a key request could not be mailed');
      }
      return admission;
    },

    async awaitingConfirmation(token) {
      const row = await findByLiveToken(db, tokenHash(token), clock());
      return row && viewOf(row);
    },

    async confirm(token) {
      const now = clock();
      const claimed = await claimToken(db, tokenHash(token), now);
      if (!claimed) return { outcome: 'invalid' };
      const planRules = rules.planById.get(claimed.plan_id);
      const earlierOnNetwork =
        planRules?.validityDays != null
          ? await networkTrialSince(
              db,
              claimed.client_network,
              claimed.plan_id,
              new Date(now.getTime() - networkLookbackDays * dayMs),
              claimed.id,
            )
          : undefined;
      const reasons = waitingReasons({
        plan: claimed.plan_id,
        selfService: planRules?.selfService ?? false,
        disposableDomain: disposableDomainOf(claimed.email),
        networkTrial: earlierOnNetwork
          ? {
              network: claimed.client_network,
              requestId: earlierOnNetwork.id,
              grantedAt: isoSeconds(earlierOnNetwork.decided_at ?? earlierOnNetwork.created_at),
            }
          : null,
      });
      if (reasons.length === 0) {
        const granted = await grant(claimed, claimed.plan_id, false);
        if (!('refused' in granted)) {
          try {
            await mailKey(granted);
          } catch (error) {
            log.error({ err: error, requestId: claimed.id, keyId: granted.id }, 'a granted key could not be mailed');
          }
          return { outcome: 'granted', request: viewOf(await existing(claimed.id)) };
        }
        reasons.push(granted.refused);
      }
      await setWaitingReasons(db, claimed.id, reasons);
      const request = viewOf(await existing(claimed.id));
      try {
        await settings.mailer.send(receivedMessage(summaryOf(request)));
      } catch (error) {
        log.error({ err: error, requestId: claimed.id }, 'the receipt of a key request could not be mailed');
      }
      return { outcome: 'waiting', request };
    },

    async list(status) {
      return (await listKeyRequests(db, status, clock())).map(viewOf);
    },

    async show(id) {
      return viewOf(await existing(id));
    },

    async approve(id, options) {
      const row = await pending(id);
      const plan = options.plan ?? row.plan_id;
      if (!taxonomy.plans.includes(plan))
        throw new OperatorError(`plan must be one of ${taxonomy.plans.join(', ')}, got ${JSON.stringify(plan)}`);
      // The operator's approval is the override of the one-trial rules.
      const issued = await grant(row, plan, true);
      if ('refused' in issued) throw new OperatorError(issued.refused);
      const delivery = options.send ? await mailKey(issued) : null;
      return { request: viewOf(await existing(id)), issued, delivery };
    },

    async reject(id, reason) {
      const text = requireText(reason, 'reason', 1000);
      const row = await pending(id);
      const request = await operator.atomically(async (atomic, trx) => {
        if (!(await settleRequest(trx, id, { status: 'rejected', reason: text }, clock())))
          throw new OperatorError(`request ${id} was settled meanwhile`);
        const settled = await findKeyRequest(trx, id);
        await atomic.recordAction({
          action: 'requests reject',
          target: id,
          before: { status: row.status, plan: row.plan_id, email: row.email },
          after: { status: settled!.status },
          reason: text,
        });
        return viewOf(settled!);
      });
      return { request, delivery: await settings.mailer.send(rejectionMessage(summaryOf(viewOf(row)), text)) };
    },

    async digest(send) {
      const waiting = (await listKeyRequests(db, 'pending', clock())).map(viewOf);
      if (!send) return { pending: waiting, delivery: null };
      if (!settings.operatorEmail) throw new OperatorError('OPERATOR_EMAIL is not set: the address the digest goes to');
      const delivery = await settings.mailer.send(digestMessage(settings.operatorEmail, waiting));
      return { pending: waiting, delivery };
    },
  };
}
