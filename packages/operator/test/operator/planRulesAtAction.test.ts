import { rules, taxonomy } from '@quotes/contract';
import {
  createKeyRequestService,
  createMailer,
  createOperatorApi,
  type KeyRequestService,
  OperatorError,
  type OperatorApi,
} from '@quotes/accounts';
import { systemClock } from '@quotes/accounts/rules';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { type SmtpInbox, startSmtpInbox } from '@quotes/server/testing';
import { silentLogger } from '@quotes/service-base';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningConsole, startConsole } from '../../src/console/consoleServer.js';
import { runInProcess } from '../support/adminProcess.js';

// Every plan rule is the key action's: whichever surface creates or changes a key (the domain
// call, the CLI as a function, the console over HTTP, a key request's or a holder's request's
// approval), no key leaves the database outside its plan's rules or with an allowance nobody chose.

let database: TestDatabase;
let inbox: SmtpInbox;
let operator: OperatorApi;
let service: KeyRequestService;
let running: RunningConsole;
let cookie: string;
let csrf: string;

const keyRequestSettings = (mailUrl: string, baseUrl: string) => ({
  mailer: createMailer({ smtpUrl: mailUrl, from: 'keys@quotes.example.test', outboxDir: '/nonexistent' }),
  publicBaseUrl: baseUrl,
  bounds: {
    perAddressPerHour: 100,
    perNetworkPerHour: 100,
    perEmailPerHour: 100,
    perHour: 1000,
    maxOpen: 1000,
    unprovenMailsPerHour: 10_000,
  },
});

beforeAll(async () => {
  [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
  operator = createOperatorApi(database);
  const settings = keyRequestSettings(inbox.url, 'http://127.0.0.1:3000');
  service = createKeyRequestService(database, operator, settings, systemClock, silentLogger);
  running = await startConsole({ database, host: '127.0.0.1', port: 0, log: () => undefined, keyRequests: settings });
  const signIn = await fetch(running.signInUrl, { redirect: 'manual' });
  cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
  csrf = /name="_csrf" value="([^"]+)"/.exec(
    await (await fetch(`${running.url}/`, { headers: { cookie } })).text(),
  )![1]!;
}, 60_000);
afterAll(async () => {
  await running?.close();
  await inbox?.close();
  await database?.drop();
});

/** What the operator asks for: a plan and, perhaps, an allowance and a largest page. */
interface Ask {
  plan: string;
  monthlyCalls?: number;
  unlimited?: boolean;
  maxLimit?: number;
}

/** The rules as the contract states them, written apart from the code under test: the oracle. */
function expectedKey(ask: Ask): { monthlyCalls: number | null; maxLimit: number | null } | 'refused' {
  const plan = rules.planById.get(ask.plan)!;
  const calls = ask.monthlyCalls;
  if (!plan.perKeyLimits)
    return calls === undefined && !ask.unlimited && ask.maxLimit === undefined
      ? { monthlyCalls: null, maxLimit: null }
      : 'refused';
  const chosen = (calls !== undefined) !== (ask.unlimited === true);
  const callsOk = calls === undefined || (calls >= 0 && calls <= 2_147_483_647);
  const pageOk = ask.maxLimit === undefined || (ask.maxLimit >= 1 && ask.maxLimit <= rules.pageCeiling);
  return chosen && callsOk && pageOk ? { monthlyCalls: calls ?? null, maxLimit: ask.maxLimit ?? null } : 'refused';
}

const cliFlags = (ask: Ask) => [
  '--plan',
  ask.plan,
  ...(ask.monthlyCalls === undefined ? [] : ['--monthly-calls', String(ask.monthlyCalls)]),
  ...(ask.unlimited ? ['--unlimited'] : []),
  ...(ask.maxLimit === undefined ? [] : ['--max-limit', String(ask.maxLimit)]),
];

const consoleForm = (ask: Ask) => ({
  plan: ask.plan,
  monthlyCalls: ask.monthlyCalls === undefined ? '' : String(ask.monthlyCalls),
  ...(ask.unlimited ? { unlimited: 'yes' } : {}),
});

async function consolePost(path: string, form: Record<string, string>): Promise<number> {
  const answer = await fetch(`${running.url}${path}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...form, _csrf: csrf }),
    redirect: 'manual',
  });
  await answer.arrayBuffer();
  expect(answer.status, `${path}: a refusal is a page in words, never a failure`).toBeLessThan(500);
  return answer.status;
}

async function cli(...args: string[]): Promise<boolean> {
  const run = await runInProcess({ DATABASE_URL: database.url }, ...args);
  // A refusal is one line naming the rule, never an unexpected error.
  if (run.code !== 0) expect(run.stderr, args.join(' ')).not.toMatch(/quotes-admin: error:/);
  return run.code === 0;
}

/** Domain calls answer a refusal with an OperatorError; anything else is a defect. */
async function domain(work: () => Promise<unknown>): Promise<boolean> {
  try {
    await work();
    return true;
  } catch (error) {
    if (error instanceof OperatorError) return false;
    throw error;
  }
}

let serial = 0;

/** A starter key with an address, to change or to be the subject of its holder's request. */
async function starterKey(): Promise<string> {
  serial += 1;
  return (await operator.createKey({ client: `Base ${serial}`, plan: 'starter', email: `h${serial}@example.com` })).id;
}

/** A confirmed request waiting for the operator: a new key, or a plan change of `forKeyId`. */
async function pendingRequest(plan: string, forKeyId?: string): Promise<string> {
  serial += 1;
  const id = `r_prop${String(serial).padStart(8, '0')}`;
  const now = new Date();
  await database.db
    .insertInto('key_requests')
    .values({
      id,
      kind: forKeyId ? 'plan-change' : 'key',
      for_key_id: forKeyId ?? null,
      email: `asker${serial}@example.com`,
      name: `Asker ${serial}`,
      application: `App ${serial}`,
      plan_id: plan,
      use: 'Quotes in a reading app.',
      client_address: '127.0.0.1',
      client_network: '127.0.0.0/24',
      status: 'pending',
      reasons: [`the ${plan} plan is granted by the operator`],
      token_hash: null,
      token_expires_at: now,
      created_at: now,
      confirmed_at: now,
    })
    .execute();
  return id;
}

const keyOfRequest = async (id: string) =>
  (await database.db.selectFrom('key_requests').select('key_id').where('id', '=', id).executeTakeFirstOrThrow()).key_id;

/** Each surface's way to make or change a key: whether it was done, and the key to read back. */
type Surface = (ask: Ask) => Promise<{ done: boolean; keyId: string | null }>;

const surfaces: Record<string, Surface> = {
  'domain keys create': async (ask) => {
    serial += 1;
    let keyId: string | null = null;
    const done = await domain(async () => {
      keyId = (await operator.createKey({ client: `Domain ${serial}`, ...ask })).id;
    });
    return { done, keyId };
  },
  'domain keys change-plan': async (ask) => {
    const keyId = await starterKey();
    return { done: await domain(() => operator.changePlan(keyId, ask)), keyId };
  },
  'domain key request approval': async (ask) => {
    const id = await pendingRequest('enterprise');
    const done = await domain(() => service.approve(id, { ...ask, send: false }));
    return { done, keyId: await keyOfRequest(id) };
  },
  "domain holder's request approval": async (ask) => {
    const keyId = await starterKey();
    const id = await pendingRequest('enterprise', keyId);
    return { done: await domain(() => service.approve(id, { ...ask, send: false })), keyId };
  },
  'cli keys create': async (ask) => {
    serial += 1;
    const client = `Cli ${serial}`;
    const done = await cli('keys', 'create', '--client', client, ...cliFlags(ask));
    const row = await database.db.selectFrom('api_keys').select('id').where('client', '=', client).executeTakeFirst();
    return { done, keyId: row?.id ?? null };
  },
  'cli keys change-plan': async (ask) => {
    const keyId = await starterKey();
    return { done: await cli('keys', 'change-plan', keyId, ...cliFlags(ask), '--no-send'), keyId };
  },
  'cli requests approve (key)': async (ask) => {
    const id = await pendingRequest('enterprise');
    const done = await cli('requests', 'approve', id, ...cliFlags(ask));
    return { done, keyId: await keyOfRequest(id) };
  },
  "cli requests approve (holder's)": async (ask) => {
    const keyId = await starterKey();
    const id = await pendingRequest('enterprise', keyId);
    return { done: await cli('requests', 'approve', id, ...cliFlags(ask)), keyId };
  },
  'console change plan': async (ask) => {
    const keyId = await starterKey();
    return { done: (await consolePost(`/keys/${keyId}/actions/change-plan`, consoleForm(ask))) === 303, keyId };
  },
  'console approval (key)': async (ask) => {
    const id = await pendingRequest('enterprise');
    const done = (await consolePost(`/requests/${id}/approve`, consoleForm(ask))) === 303;
    return { done, keyId: await keyOfRequest(id) };
  },
  "console approval (holder's)": async (ask) => {
    const keyId = await starterKey();
    const id = await pendingRequest('enterprise', keyId);
    return { done: (await consolePost(`/requests/${id}/approve`, consoleForm(ask))) === 303, keyId };
  },
};

/** The console's forms have no largest page: what it is asked never names one. */
const consoleSurface = (name: string) => name.startsWith('console');

const askOf = fc.record(
  {
    plan: fc.constantFrom(...taxonomy.plans),
    monthlyCalls: fc.oneof(fc.integer({ min: 0, max: 2_147_483_647 }), fc.constantFrom(0, 1000, 2_147_483_648)),
    unlimited: fc.boolean(),
    maxLimit: fc.integer({ min: 0, max: rules.pageCeiling + 5 }),
  },
  { requiredKeys: ['plan'] },
);

describe('plan rules at the action', { timeout: 300_000 }, () => {
  it('leaves no key outside its plan’s rules, whichever surface made or changed it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(surfaces)), askOf, async (name, asked) => {
        const ask: Ask = consoleSurface(name) ? { ...asked, maxLimit: undefined } : asked;
        if (ask.unlimited === false) delete ask.unlimited;
        const { done, keyId } = await surfaces[name]!(ask);
        const expected = expectedKey(ask);
        const row =
          keyId === null
            ? undefined
            : await database.db
                .selectFrom('api_keys')
                .select(['plan_id', 'monthly_calls', 'max_limit'])
                .where('id', '=', keyId)
                .executeTakeFirst();
        if (!done) {
          // Refused: nothing was made (no row), and a key that was to change is as it was.
          if (row) expect(row).toEqual({ plan_id: 'starter', monthly_calls: null, max_limit: null });
          return;
        }
        expect(expected, `${name} did ${JSON.stringify(ask)}, which the plan's rules refuse`).not.toBe('refused');
        expect(row).toEqual({
          plan_id: ask.plan,
          monthly_calls: (expected as { monthlyCalls: number | null }).monthlyCalls,
          max_limit: (expected as { maxLimit: number | null }).maxLimit,
        });
      }),
      { numRuns: 60 },
    );
  });

  it('refuses an enterprise approval without an allowance, at every surface, naming its own fields', async () => {
    const viaDomain = await pendingRequest('enterprise');
    await expect(service.approve(viaDomain, { send: false })).rejects.toThrow(
      'enterprise keys need a monthly allowance N (calls a month), or unlimited for no monthly limit',
    );
    const viaCli = await pendingRequest('enterprise');
    const run = await runInProcess({ DATABASE_URL: database.url }, 'requests', 'approve', viaCli, '--no-send');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'quotes-admin: enterprise keys need --monthly-calls N (calls a month), or --unlimited for no monthly limit\n',
    );
    const viaConsole = await pendingRequest('enterprise');
    const answer = await fetch(`${running.url}/requests/${viaConsole}/approve`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ plan: 'enterprise', monthlyCalls: '', _csrf: csrf }),
      redirect: 'manual',
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain(
      'enterprise keys need &quot;monthly calls&quot; N (calls a month), or &quot;unlimited&quot; for no monthly limit',
    );
    for (const id of [viaDomain, viaCli, viaConsole]) expect(await keyOfRequest(id)).toBeNull();
  });
});
