import { fileURLToPath } from 'node:url';
import proxyAddr from 'proxy-addr';
import { z } from 'zod';

/** The sender when MAIL_FROM is unset: a name no mail server accepts mail from, so start-up warns about it. */
export const defaultMailFrom = 'Quote Retrieval Service <keys@quotes.localhost>';

/** Root of the checkout: `.data/` lives here so the embedded database survives restarts. */
const checkoutRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** `VAR=` in a shell or an .env file means "not set". */
const unsetWhenEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema);

const port = z.coerce.number().int().min(0).max(65535);

const postgresUrl = z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL');

const environmentSchema = z
  .object({
    DATABASE_URL: postgresUrl.optional(),
    // LISTEN (and the corpus loader's session) on a direct connection when DATABASE_URL is a
    // transaction pooler, which keeps no session between transactions; default DATABASE_URL.
    DATABASE_LISTEN_URL: unsetWhenEmpty(postgresUrl.optional()),
    DATABASE_POOL_MODE: z.enum(['session', 'transaction']).default('session'),
    PORT: port.default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    // Prometheus metrics on a port of their own; unset, none are served.
    METRICS_PORT: unsetWhenEmpty(port.optional()),
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** json: one JSON object a line, for log shippers; pretty: one short line a call, for a terminal. */
    LOG_FORMAT: unsetWhenEmpty(z.enum(['json', 'pretty']).optional()),
    NODE_ENV: z.string().optional(),
    DATA_DIR: z.string().min(1).default(`${checkoutRoot}.data`),
    EMBEDDED_PG_PORT: port.default(54329),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
    // The deadlines of every database call on the request path: waiting for a connection, and one
    // statement. A hung database is answered 503 within them rather than holding requests.
    DATABASE_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
    // How long a cached key is trusted without asking the database, and how often the
    // notification connection is checked: together they bound revocation when notifications fail.
    KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(300_000).default(15_000),
    NOTIFICATION_HEARTBEAT_MS: z.coerce.number().int().min(200).max(60_000).default(5000),
    // Memory for the quotes' JSON read recently (pages and picks answered without a statement).
    QUOTE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(32),
    // Every quote's JSON held outside the heap when it totals at most this: random picks read no statement.
    QUOTE_HOLD_MB: z.coerce.number().int().min(0).max(4096).default(64),
    // When they do not fit that, held in an unlinked file under TMPDIR when they total at most
    // this: random picks read one pread, no statement (server README, QUOTE_READS.md).
    QUOTE_FILE_MB: z.coerce.number().int().min(0).max(65_536).default(2048),
    // Before listening, calls run through the request path so the first callers meet optimised
    // code (server README, "Before listening"): at most this many, and this long with the summaries.
    WARM_UP_CALLS: z.coerce.number().int().min(0).max(1_000_000).default(30_000),
    WARM_UP_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
    // One key's calls per process: running at once, waiting for a place, and for how long.
    KEY_CALLS_AT_ONCE: z.coerce.number().int().min(1).max(1000).default(8),
    KEY_CALLS_QUEUED: z.coerce.number().int().min(0).max(100_000).default(256),
    KEY_QUEUE_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(3000),
    // Calls on filter combinations new to a server running at once there before the next wait
    // their key's turn; unset: half of DATABASE_POOL_SIZE (coldWork.ts).
    COLD_WORK_AT_ONCE: unsetWhenEmpty(z.coerce.number().int().min(1).max(1000).optional()),
    // How often each server adds the calls it answered to the monthly counts and renews its
    // leases: a SIGKILL loses at most the calls of this interval (README, "Counting").
    COUNT_FLUSH_MS: z.coerce.number().int().min(10).max(5000).default(200),
    // Usage history: how often each server adds what it counted (a kill loses at most this much),
    // how long rows stay hourly before they are folded into days, and how long they are kept.
    // off: no history is recorded (usage history and signals stay empty; the monthly counter still bills).
    USAGE_HISTORY: z.enum(['on', 'off']).default('on'),
    USAGE_HISTORY_FLUSH_MS: z.coerce.number().int().min(100).max(10_000).default(10_000),
    // The corpus coverage is written less often: a monthly signal, whose rows are most of what a flush writes.
    USAGE_COVERAGE_FLUSH_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
    // What it holds between flushes at most: reaching it flushes early (server README, Usage history).
    USAGE_HISTORY_MAX_MB: z.coerce.number().int().min(1).max(1024).default(16),
    USAGE_HISTORY_HOURLY_DAYS: z.coerce.number().int().min(1).max(3660).default(31),
    USAGE_HISTORY_DAYS: z.coerce.number().int().min(1).max(3660).default(400),
    // The signs of broken terms (usage signals): what counts as unusual (mailed to OPERATOR_EMAIL).
    USAGE_SIGNAL_SWEEP_PAGES: z.coerce.number().int().min(2).max(1_000_000).default(20),
    USAGE_SIGNAL_NETWORKS_PER_DAY: z.coerce.number().int().min(2).max(1_000_000).default(5),
    USAGE_SIGNAL_ORIGINS_PER_DAY: z.coerce.number().int().min(2).max(1_000_000).default(4),
    USAGE_SIGNAL_TRIALS_PER_NETWORK: z.coerce.number().int().min(2).max(1000).default(3),
    USAGE_SIGNAL_COVERAGE_PERCENT: z.coerce.number().int().min(1).max(100).default(35),
    // SIGTERM to exit, whatever the database does.
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    // Of that grace, how long /readyz fails before the listener closes: a load balancer's health
    // checks take the server out meanwhile, so no new call finds the port closed.
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(0),
    // Unset: the corpus's own defaults (@quotes/corpus/defaults), applied where a corpus is made.
    CORPUS_SIZE: unsetWhenEmpty(z.coerce.number().int().min(0).max(5_000_000).optional()),
    CORPUS_SEED: unsetWhenEmpty(
      z.coerce
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1)
        .optional(),
    ),
    // Mail: without SMTP_URL messages are written as .eml files under DATA_DIR/outbox.
    SMTP_URL: unsetWhenEmpty(
      z
        .string()
        .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL')
        .optional(),
    ),
    MAIL_FROM: z.string().min(3).max(320).default(defaultMailFrom),
    PUBLIC_BASE_URL: unsetWhenEmpty(
      z
        .string()
        .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'must be an http:// or https:// URL without query or fragment')
        .optional(),
    ),
    // Key requests (the public form). The proxies whose X-Forwarded-For is believed, as addresses
    // or CIDRs separated by commas (`loopback`, `uniquelocal` and `linklocal` name those ranges);
    // unset: the client address is the socket's, whatever the header says.
    TRUST_PROXY: unsetWhenEmpty(
      z
        .string()
        .transform((text) =>
          text
            .split(',')
            .map((part) => part.trim())
            .filter((part) => part !== ''),
        )
        .refine((list) => {
          try {
            proxyAddr.compile(list);
            return list.length > 0;
          } catch {
            return false;
          }
        }, 'must be addresses or CIDRs separated by commas (e.g. 10.0.0.1,192.168.0.0/16)')
        .optional(),
    ),
    // How often each server looks for mails due to key holders (allowance, expiry, revocation);
    // 0 sends none from this server (another server, or `usage alerts --send`, does).
    HOLDER_MAIL_SWEEP_MS: z.coerce
      .number()
      .int()
      .refine((value) => value === 0 || (value >= 1000 && value <= 3_600_000), 'must be 0 or 1000 to 3600000')
      .default(60_000),
    // Where `requests digest --send` mails the pending requests.
    OPERATOR_EMAIL: unsetWhenEmpty(z.string().min(3).max(254).optional()),
    // Requests recorded per hour: from one client address (a few people may share one office
    // address), from one network (IPv4 /24, IPv6 /56), for one person, from everyone before the
    // service counts as busy (then one an hour per IPv4 /24 or IPv6 /48); and the unconfirmed and
    // pending requests kept at most (the oldest unconfirmed make room).
    KEY_REQUESTS_PER_ADDRESS_HOUR: z.coerce.number().int().min(1).max(10_000).default(5),
    KEY_REQUESTS_PER_NETWORK_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
    KEY_REQUESTS_PER_EMAIL_HOUR: z.coerce.number().int().min(1).max(10_000).default(3),
    KEY_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(200),
    KEY_REQUESTS_MAX_OPEN: z.coerce.number().int().min(1).max(1_000_000).default(1000),
    // Mails to addresses nobody has proved (confirmation and sign-in links), per clock hour for the
    // whole service: above the busy mark (KEY_REQUESTS_PER_HOUR), so a busy hour still admits each
    // new network's first request, and far above an honest hour's.
    UNPROVEN_MAILS_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000).default(300),
    // The service is busy once this share (percent) of the hour's mails to unproven addresses is
    // taken: then, until the clock hour turns or the budget is spent, the key-request and sign-in
    // forms ask for a proof of work (ALTCHA) before they record or mail anything. 0 asks always,
    // 100 never.
    PROOF_OF_WORK_FROM_PERCENT: z.coerce.number().int().min(0).max(100).default(20),
    // The public pages' bulkhead (key requests, confirmations, holders' pages): their own database
    // connections, requests worked on at once and started per second, and requests waiting; past
    // that, 503.
    PUBLIC_PAGES_DATABASE_CONNECTIONS: z.coerce.number().int().min(1).max(50).default(2),
    PUBLIC_PAGES_AT_ONCE: z.coerce.number().int().min(1).max(100).default(4),
    PUBLIC_PAGES_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(10),
    PUBLIC_PAGES_QUEUED: z.coerce.number().int().min(0).max(10_000).default(32),
  })
  .superRefine((environment, context) => {
    if (environment.DATABASE_POOL_MODE !== 'transaction') return;
    // A transaction pooler drops LISTEN with the transaction that sent it: notifications need their own way in.
    if (!environment.DATABASE_URL)
      context.addIssue({
        code: 'custom',
        path: ['DATABASE_POOL_MODE'],
        message: 'transaction needs DATABASE_URL (the pooler)',
      });
    else if (!environment.DATABASE_LISTEN_URL)
      context.addIssue({
        code: 'custom',
        path: ['DATABASE_LISTEN_URL'],
        message: 'required with DATABASE_POOL_MODE=transaction: a direct connection to PostgreSQL for LISTEN',
      });
  })
  .superRefine((environment, context) => {
    if (environment.SHUTDOWN_DRAIN_MS > environment.SHUTDOWN_GRACE_MS / 2)
      context.addIssue({
        code: 'custom',
        path: ['SHUTDOWN_DRAIN_MS'],
        message: 'at most half of SHUTDOWN_GRACE_MS: the rest is for the calls in flight',
      });
  });

export type Config = Readonly<z.infer<typeof environmentSchema>>;

/** A configuration problem, reported as one line naming the variable. */
export class ConfigError extends Error {}

/**
 * The only place that reads process.env. Parses once; a bad variable stops start-up with its
 * name, not a stack trace.
 */
export function parseConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const result = environmentSchema.safeParse(environment);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid environment: ${lines.join('; ')}`);
  }
  return Object.freeze(result.data);
}

/** LOG_FORMAT when set; otherwise pretty on a terminal, and JSON in production or when stdout is a file or pipe. */
export function logFormat(config: Config, stdoutIsTerminal: boolean): 'json' | 'pretty' {
  return config.LOG_FORMAT ?? (stdoutIsTerminal && config.NODE_ENV !== 'production' ? 'pretty' : 'json');
}

/** Where clients reach the service (links in mail): PUBLIC_BASE_URL, else the address the server listens on. */
export function publicBaseUrl(config: Config): string {
  return (config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${config.PORT}`).replace(/\/+$/, '');
}

/** The bounds on key requests (KEY_REQUESTS_*). */
export function keyRequestBounds(config: Config) {
  return {
    perAddressPerHour: config.KEY_REQUESTS_PER_ADDRESS_HOUR,
    perNetworkPerHour: config.KEY_REQUESTS_PER_NETWORK_HOUR,
    perEmailPerHour: config.KEY_REQUESTS_PER_EMAIL_HOUR,
    perHour: config.KEY_REQUESTS_PER_HOUR,
    maxOpen: config.KEY_REQUESTS_MAX_OPEN,
    unprovenMailsPerHour: config.UNPROVEN_MAILS_PER_HOUR,
  } as const;
}

/** How long the usage history stays hourly and how long it is kept. */
export function historyRetentionOf(config: Config): { keepDays: number; hourlyDays: number } {
  return { keepDays: config.USAGE_HISTORY_DAYS, hourlyDays: config.USAGE_HISTORY_HOURLY_DAYS };
}
