import { hash } from 'node:crypto';
import { taxonomy } from '@quotes/contract';
import type { Database, KeyRequestKind, KeyRequestStatus } from '@quotes/database';
import type { Kysely } from 'kysely';
import {
  admitKeyRequest,
  type Admission,
  findByLiveToken,
  findKeyRequest,
  type KeyRequestRow,
  listKeyRequests,
  type RequestBounds,
  settleRequest,
} from '../data/keyRequests.js';
import { isoSeconds } from '../domain/calendarMonth.js';
import { clientNetworkOf } from '../domain/clientNetwork.js';
import type { Clock } from '../domain/clock.js';
import { randomBase62 } from '../keys/apiKeySecret.js';
import type { Logger } from '@quotes/service-base';
import {
  confirmationMessage,
  digestMessage,
  receivedMessage,
  rejectionMessage,
  type RequestSummary,
} from '../mail/keyRequestMessages.js';
import type { Delivery, Mailer, MailMessage } from '../mail/mailer.js';
import { keyMessage } from '../mail/operatorMessages.js';
import { requirePublicBaseUrl } from '../mail/publicAddress.js';
import { type IssuedKey, type KeyView, type OperatorApi, OperatorError } from '../operator/operatorApi.js';
import { approveHolderRequest, isHolderRequest, rejectHolderRequest } from './holderRequestDecisions.js';
import { type AllowanceChoice, allowanceOf, optionalText, requireDecisionCategory } from '../operator/operatorInput.js';
import { clientOf, confirmAndDecide, issueWithin, unusableTextOf } from './keyRequestDecisions.js';
import type { KeyRequestInput } from './keyRequestFields.js';

export { type KeyRequestInput, keyRequestTextFields } from './keyRequestFields.js';

export interface KeyRequestSettings {
  /**
   * Where links in mail point: PUBLIC_BASE_URL (the server falls back to its listening address),
   * never the request's Host. Unset, nothing that mails a link is done (requirePublicBaseUrl).
   */
  readonly publicBaseUrl: string | undefined;
  readonly mailer: Mailer;
  readonly bounds: RequestBounds;
  /** Proxies whose X-Forwarded-For is believed (TRUST_PROXY). */
  readonly trustProxy?: readonly string[];
  /** Where the digest of pending requests goes (OPERATOR_EMAIL). */
  readonly operatorEmail?: string;
  /** A request started waiting for the operator: the server's notice to the operator is swept soon. */
  readonly onWaiting?: () => void;
}

/** How long a confirmation link works. */
export const tokenValidHours = 24;
const hourMs = 3_600_000;

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
  /** The operator's own words (never mailed). */
  readonly rejectionReason: string | null;
  /** What the person who asked was told: a decision category (domain/decisionCategories.ts). */
  readonly rejectionCategory: string | null;
  /** A new key, or a holder's plan change or renewal of the key `forKeyId`. */
  readonly kind: KeyRequestKind;
  readonly forKeyId: string | null;
}

/** What confirming a link came to. */
export type Confirmation =
  | { readonly outcome: 'invalid' }
  | { readonly outcome: 'granted'; readonly request: KeyRequestView }
  /** `holderReasons`: why it waits, in words the person who asked may read (never another's data). */
  | { readonly outcome: 'waiting'; readonly request: KeyRequestView; readonly holderReasons: readonly string[] }
  /** Its stored text is one no later step accepts: the request is rejected, for `reason`. */
  | { readonly outcome: 'unusable'; readonly request: KeyRequestView; readonly reason: string };

export const tokenHash = (token: string): Buffer => hash('sha256', token, 'buffer');

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
    rejectionCategory: row.rejection_category,
    kind: row.kind,
    forKeyId: row.for_key_id,
  };
}

const summaryOf = (view: KeyRequestView): RequestSummary => view;

export interface KeyRequestService {
  readonly settings: KeyRequestSettings;
  /**
   * Records a request unless a bound refuses it, and mails its confirmation link once the answer
   * is decided (the mail never delays or changes the answer). A filled honeypot is recorded and
   * counted the same way, with no token and no mail.
   */
  submit(input: KeyRequestInput, clientAddress: string): Promise<Admission>;
  /** Resolves when every confirmation mail started has been handed over or failed (before the mailer closes). */
  idle(): Promise<void>;
  /** The request a live link belongs to (for the confirmation page); the token stays unused. */
  awaitingConfirmation(token: string): Promise<KeyRequestView | undefined>;
  /** Uses a token: the address is proven, the request decided (a self-service key granted and mailed) or queued. */
  confirm(token: string): Promise<Confirmation>;
  list(status?: KeyRequestStatus): Promise<KeyRequestView[]>;
  show(id: string): Promise<KeyRequestView>;
  /**
   * Issues the key (the same code as `keys create`) and mails it. Only the operator's explicit
   * `send: false` leaves the mail out (decision 0046): the key is then returned for printing. A
   * holder's plan change or renewal changes their key instead (`changed`; no key issued) and
   * mails the decision.
   */
  approve(
    id: string,
    options: ApproveOptions,
  ): Promise<{ request: KeyRequestView; issued: IssuedKey | null; changed?: KeyView; delivery: Delivery | null }>;
  /**
   * Refuses a pending request: the person who asked is mailed the `category`'s words
   * (domain/decisionCategories.ts) unless the operator explicitly says `send: false`; the
   * operator's `reason` stays in the audit and the request.
   */
  reject(
    id: string,
    decision: { readonly category: string; readonly reason?: string | null },
    options?: { send: boolean },
  ): Promise<{ request: KeyRequestView; delivery: Delivery | null }>;
  /** The pending requests, and the digest mailed to OPERATOR_EMAIL when `send`. */
  digest(send: boolean): Promise<{ pending: KeyRequestView[]; delivery: Delivery | null }>;
}

/**
 * The operator's approval: the plan (default: the one asked for) and, on a plan with per-key
 * limits, the allowance chosen as `keys create` chooses it (the key action refuses it missing).
 */
export interface ApproveOptions extends AllowanceChoice {
  readonly plan?: string;
  readonly send: boolean;
  readonly monthlyCalls?: number | string | null;
  readonly maxLimit?: number | null;
}

export function createKeyRequestService(
  database: { db: Kysely<Database> },
  operator: OperatorApi,
  settings: KeyRequestSettings,
  clock: Clock,
  log: Logger,
): KeyRequestService {
  const { db } = database;
  // Read when used: the server's fallback, its listening address, is known once listening.
  const baseUrl = () => requirePublicBaseUrl(settings.publicBaseUrl);

  async function existing(id: string): Promise<KeyRequestRow> {
    const row = await findKeyRequest(db, id);
    if (!row) throw new OperatorError(`no key request with id ${JSON.stringify(id)} (see: requests list)`, 'not-found');
    return row;
  }

  async function pending(id: string): Promise<KeyRequestRow> {
    const row = await existing(id);
    if (row.status !== 'pending')
      throw new OperatorError(
        `request ${id} is ${row.status}; only pending (confirmed) requests are decided`,
        'conflict',
      );
    return row;
  }

  /** Mails the key of an approved request (HTML alternative included). */
  async function mailKey(issued: IssuedKey, base = baseUrl()): Promise<Delivery> {
    const view = await operator.showKey(issued.id);
    return settings.mailer.send(keyMessage(issued, view, base, false));
  }

  // The address is asked for before the decision is made, and only when a mail will carry it.
  const decisionContext = (base: string | undefined) => ({ mailer: settings.mailer, baseUrl: base ?? '', clock });

  // Confirmation mail in flight: sent after the answer, so its time and outcome tell nothing.
  const sending = new Set<Promise<void>>();

  function mailConfirmation(id: string, message: MailMessage): void {
    const sent: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => settings.mailer.send(message))
      .then(
        () => undefined,
        (error: unknown) => {
          log.error({ err: error, requestId: id }, 'the confirmation of a key request could not be mailed');
        },
      )
      .finally(() => sending.delete(sent));
    sending.add(sent);
  }

  return {
    settings,

    async submit(input, clientAddress) {
      const now = clock();
      const network = clientNetworkOf(clientAddress);
      const token = randomBase62(32);
      const id = `r_${randomBase62(12)}`;
      // A robot's post (the hidden field filled) takes the same path, bounds and answer: only the mail is left out.
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
          clientSite: network.site,
          tokenHash: tokenHash(token),
          tokenExpiresAt: new Date(now.getTime() + tokenValidHours * hourMs),
          trapped: input.honeypot,
        },
        settings.bounds,
        now,
      );
      if (admission.admitted && !input.honeypot)
        mailConfirmation(
          id,
          confirmationMessage(
            { email: input.email, plan: input.plan },
            `${baseUrl()}/keys/confirm?token=${token}`,
            tokenValidHours,
          ),
        );
      return admission;
    },

    async idle() {
      while (sending.size > 0) await Promise.all(sending);
    },

    async awaitingConfirmation(token) {
      const row = await findByLiveToken(db, tokenHash(token), clock());
      return row && viewOf(row);
    },

    async confirm(token) {
      const decision = await confirmAndDecide(operator, tokenHash(token), clock());
      if (decision.outcome === 'invalid') return decision;
      const request = viewOf(await existing(decision.id));
      if (decision.outcome === 'unusable') return { outcome: 'unusable', request, reason: decision.reason };
      if (decision.outcome === 'granted') {
        try {
          await mailKey(decision.issued);
        } catch (error) {
          log.error(
            { err: error, requestId: request.id, keyId: decision.issued.id },
            'a granted key could not be mailed',
          );
        }
        return { outcome: 'granted', request };
      }
      settings.onWaiting?.();
      try {
        await settings.mailer.send(receivedMessage(summaryOf(request), decision.holderReasons));
      } catch (error) {
        log.error({ err: error, requestId: request.id }, 'the receipt of a key request could not be mailed');
      }
      return { outcome: 'waiting', request, holderReasons: decision.holderReasons };
    },

    async list(status) {
      return (await listKeyRequests(db, status, clock())).map(viewOf);
    },

    async show(id) {
      return viewOf(await existing(id));
    },

    async approve(id, options) {
      // Refused before the key exists: a key issued and then not mailed would be lost to its holder.
      const base = options.send ? baseUrl() : undefined;
      const row = await pending(id);
      const plan = options.plan ?? row.plan_id;
      if (!taxonomy.plans.includes(plan))
        throw new OperatorError(`plan must be one of ${taxonomy.plans.join(', ')}, got ${JSON.stringify(plan)}`);
      if (isHolderRequest(row)) {
        const { key, delivery } = await approveHolderRequest(
          operator,
          row,
          { ...options, plan },
          decisionContext(base),
        );
        return { request: viewOf(await existing(id)), issued: null, changed: key, delivery };
      }
      const unusable = unusableTextOf(row);
      if (unusable !== undefined)
        throw new OperatorError(
          `request ${id} cannot become a key: ${unusable}; reject it (requests reject ${id})`,
          'conflict',
        );
      // The operator's approval is the override of the one-trial rules.
      const issued = await operator.atomically((atomic, trx) =>
        issueWithin(
          atomic,
          trx,
          row,
          { ...allowanceOf(options), maxLimit: options.maxLimit, plan, allowAnotherTrial: true },
          clock(),
        ),
      );
      if ('refused' in issued) throw new OperatorError(issued.refused, 'refused');
      const delivery = base === undefined ? null : await mailKey(issued, base);
      return { request: viewOf(await existing(id)), issued, delivery };
    },

    async reject(id, decision, options = { send: true }) {
      const category = requireDecisionCategory(decision.category);
      const text = optionalText(decision.reason, 'reason', 1000);
      const row = await pending(id);
      if (isHolderRequest(row)) {
        const settled = await rejectHolderRequest(
          operator,
          row,
          { category, reason: text },
          decisionContext(options.send ? baseUrl() : undefined),
          options.send,
        );
        return { request: viewOf(settled.row), delivery: settled.delivery };
      }
      const request = await operator.atomically(async (atomic, trx) => {
        if (!(await settleRequest(trx, id, { status: 'rejected', category, reason: text }, clock())))
          throw new OperatorError(`request ${id} was settled meanwhile`, 'conflict');
        const settled = await findKeyRequest(trx, id);
        await atomic.recordAction({
          action: 'requests reject',
          target: id,
          before: { status: row.status, plan: row.plan_id, email: row.email },
          after: { status: settled!.status, category },
          reason: text,
        });
        return viewOf(settled!);
      });
      const delivery = options.send
        ? await settings.mailer.send(rejectionMessage(summaryOf(viewOf(row)), category))
        : null;
      return { request, delivery };
    },

    async digest(send) {
      const waiting = (await listKeyRequests(db, 'pending', clock())).map(viewOf);
      if (!send) return { pending: waiting, delivery: null };
      if (!settings.operatorEmail)
        throw new OperatorError('OPERATOR_EMAIL is not set: the address the digest goes to', 'failed');
      const delivery = await settings.mailer.send(digestMessage(settings.operatorEmail, waiting));
      return { pending: waiting, delivery };
    },
  };
}
