import { accessSync, constants, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { taxonomy } from '@quotes/contract';
import { Report } from './report/report.js';
import { jsonReport, junitReport } from './report/reportFormats.js';
import { RunNotPossible } from './runNotPossible.js';
import { runConformance } from './session.js';
import { defaultRuns, readSettings } from './settings.js';
import type { GivenKeys } from './target/givenKeys.js';
import { waitForTarget } from './target/waitForTarget.js';

const usage = `Usage: quotes-conformance --base-url URL --keys-file keys.json [options]

Runs the conformance suite (Dredd over every documented response, Ajv validation of every
response seen, property-based generated requests) and prints a summary ending with
"N passed, M failed". Exit code 0: everything checked passed; 1: something failed; 2: the run
could not happen (bad flags, unreachable target), with one line on stderr saying why.

Target
  --base-url URL         a running deployment (e.g. staging). Without it: the real server
                         started here on a fresh database (embedded PostgreSQL, or a new
                         database on DATABASE_URL), with every key provisioned by the suite.
Keys for --base-url (or CONFORMANCE_KEY_<NAME> variables, or --keys-file)
  --key-trial KEY  --key-starter KEY  --key-professional KEY  --key-platform KEY
  --key-enterprise KEY   active keys of each plan
  --key-revoked KEY      a revoked key (the 403 revoked-api-key checks)
  --key-expired KEY      an expired key (the 403 expired-api-key checks)
  --key-exhausted KEY    an active key with this month's allowance used up (the 429 checks)
  --keys-file FILE       JSON object of the same names: {"platform": "qk_...", "revoked": "qk_..."}
                         (keeps keys out of the shell history and the process list)
  A check that needs a key not given is skipped and listed as skipped, never passed.
Layers
  --layers LIST          dredd,properties (default both; schema validation of every response
                         is always on)
  --mock / --no-mock     also run Dredd against the Prism mock (default: on without
                         --base-url, off with it)
  --target server|mock   what --base-url is (default server); mock: a running quotes-mock,
                         checked with Prefer: code=N and any key; counting, plans, keys'
                         states and data are the server's and listed as skipped
  --runs N               generated requests (default ${defaultRuns}; CONFORMANCE_RUNS); with a key
                         of each of four plans a default run counts about 140-250 calls
                         on each (the summary says how many it did)
  --max-calls-per-key N  counted calls the run may spend on any one key: the generated
                         requests are scaled down to fit, and a budget too small for even
                         the fixed checks stops the run before them (exit 2)
  --seed N               fast-check seed (default random, printed; CONFORMANCE_SEED)
  --path P               fast-check replay path printed with a failure (CONFORMANCE_PATH)
Reports and waiting
  --report junit=PATH    JUnit XML (one testcase per check; failures carry a curl line)
  --report json=PATH     the same as JSON; --report may be given more than once; both
                         are written on exit 2 too, with one error testcase saying why
  --wait SECONDS         wait up to SECONDS for the target's /readyz (or any HTTP answer
                         but 502-504) before starting (default 0: one probe)
  --verbose              list passing checks too, and print a stack with an error
  --help

Against a deployment, generated requests are real counted calls on the keys given: use keys
with room in their allowance, and no one else's traffic on them during the run (the counter
checks compare before and after each call). Each key is checked first: one that does not
answer as its role says stops the run (exit 2) before any check.`;

const keyNames = [...taxonomy.plans, 'revoked', 'expired', 'exhausted'];

/** Where the suite writes: stdout for the summary, stderr for progress and the one-line errors. */
export interface Output {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

function fail(message: string): never {
  throw new RunNotPossible(message);
}

function parseKeysFile(path: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    fail(`--keys-file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    fail(`--keys-file ${path}: expected a JSON object of names to keys`);
  const entries = Object.entries(parsed as Record<string, unknown>);
  for (const [name, value] of entries) {
    if (!keyNames.includes(name)) fail(`--keys-file ${path}: unknown name "${name}" (expected ${keyNames.join(', ')})`);
    if (typeof value !== 'string' || value === '') fail(`--keys-file ${path}: "${name}" must be a non-empty string`);
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

function wholeNumber(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text)) fail(`${flag} must be a whole number, got "${text}"`);
  return Number(text);
}

function parseOptions(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    options: {
      'base-url': { type: 'string' },
      'keys-file': { type: 'string' },
      layers: { type: 'string' },
      mock: { type: 'boolean' },
      'no-mock': { type: 'boolean' },
      target: { type: 'string' },
      runs: { type: 'string' },
      'max-calls-per-key': { type: 'string' },
      seed: { type: 'string' },
      path: { type: 'string' },
      report: { type: 'string', multiple: true },
      wait: { type: 'string' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean' },
      ...Object.fromEntries(keyNames.map((name) => [`key-${name}`, { type: 'string' as const }])),
    },
    strict: true,
    allowPositionals: false,
  });
}

interface ReportFile {
  readonly format: 'junit' | 'json';
  readonly path: string;
}

/** `junit=PATH` / `json=PATH`, with the folder checked now rather than after a long run. */
function parseReports(values: readonly string[]): ReportFile[] {
  return values.map((value) => {
    const match = /^(junit|json)=(.+)$/.exec(value);
    if (!match) fail(`--report must be junit=PATH or json=PATH, got "${value}"`);
    const path = resolve(match[2]!);
    try {
      accessSync(dirname(path), constants.W_OK);
    } catch {
      fail(`--report ${match[1]}: cannot write in ${dirname(path)}`);
    }
    return { format: match[1] as ReportFile['format'], path };
  });
}

/** The keys by role from the environment, the keys file and the flags (later wins), each with where it came from. */
function gatherKeys(
  options: Record<string, string | boolean | undefined>,
  fromEnvironment: Readonly<Record<string, string>>,
): { keys: Record<string, string>; sources: Record<string, string> } {
  const keys: Record<string, string> = {};
  const sources: Record<string, string> = {};
  const take = (entries: Record<string, string>, source: (name: string) => string) => {
    for (const [name, key] of Object.entries(entries)) {
      keys[name] = key;
      sources[name] = source(name);
    }
  };
  take({ ...fromEnvironment }, (name) => `CONFORMANCE_KEY_${name.toUpperCase()}`);
  if (typeof options['keys-file'] === 'string') take(parseKeysFile(options['keys-file']), () => 'keys file');
  for (const name of keyNames) {
    const value = options[`key-${name}`];
    if (typeof value === 'string') take({ [name]: value }, () => `--key-${name}`);
  }
  const unknown = Object.keys(keys).filter((name) => !keyNames.includes(name));
  if (unknown.length > 0) fail(`unknown key names ${unknown.join(', ')} (expected ${keyNames.join(', ')})`);
  return { keys, sources };
}

/**
 * The whole command: parses the flags, runs the layers asked for, prints the summary, writes the
 * reports, and resolves with the exit code: 0 every check passed, 1 a check failed, 2 the run
 * could not happen. A report asked for is written in every case, exit 2 included (one `error`
 * testcase saying why), so a CI report step always has a file to read.
 */
export async function runCommandLine(
  args: readonly string[],
  environment: NodeJS.ProcessEnv,
  output: Output,
): Promise<number> {
  const started = Date.now();
  const startedAt = new Date();
  const log = (line: string) => output.stderr(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${line}\n`);
  let reports: ReportFile[] = [];
  let baseUrl: string | undefined;
  let verbose = args.includes('--verbose');
  const write = (report: Report) => {
    const run = { baseUrl: baseUrl ?? 'http://127.0.0.1', startedAt, durationMs: Date.now() - started };
    for (const file of reports) {
      writeFileSync(file.path, file.format === 'junit' ? junitReport(report, run) : jsonReport(report, run));
      log(`${file.format} report: ${file.path}`);
    }
  };
  try {
    let parsed: ReturnType<typeof parseOptions>;
    try {
      parsed = parseOptions(args);
    } catch (error) {
      fail(`${error instanceof Error ? error.message : String(error)} (see --help)`);
    }
    const { values } = parsed;
    if (values.help) {
      output.stdout(`${usage}\n`);
      return 0;
    }
    // First, so that every later reason the run cannot happen is written to them too.
    reports = parseReports((values.report as string[] | undefined) ?? []);
    const options = values as Record<string, string | boolean | undefined>;
    verbose = options.verbose === true;
    const settings = readSettings(environment);
    baseUrl = typeof options['base-url'] === 'string' ? options['base-url'].replace(/\/+$/, '') : undefined;
    if (baseUrl !== undefined && !/^https?:\/\/[^/]/.test(baseUrl))
      fail(`--base-url must be an http(s) URL, got "${baseUrl}"`);

    const { keys, sources } = gatherKeys(options, settings.keys);
    if (!baseUrl && Object.keys(keys).length > 0)
      fail('keys are only used with --base-url; without it the suite provisions its own');
    const given: GivenKeys = {
      plans: Object.fromEntries(taxonomy.plans.filter((plan) => keys[plan]).map((plan) => [plan, keys[plan]])),
      revoked: keys.revoked,
      expired: keys.expired,
      exhausted: keys.exhausted,
      sources,
    };

    const layers =
      typeof options.layers === 'string'
        ? options.layers.split(',').map((layer) => layer.trim())
        : ['dredd', 'properties'];
    const unknownLayers = layers.filter((layer) => layer !== 'dredd' && layer !== 'properties');
    if (unknownLayers.length > 0) fail(`--layers: unknown ${unknownLayers.join(', ')} (dredd, properties)`);
    const runs = wholeNumber(options.runs as string | undefined, '--runs') ?? settings.runs;
    if (runs < 1) fail('--runs must be at least 1');
    const maxCallsPerKey = wholeNumber(options['max-calls-per-key'] as string | undefined, '--max-calls-per-key');
    if (maxCallsPerKey !== undefined && maxCallsPerKey < 1) fail('--max-calls-per-key must be at least 1');
    const seed = wholeNumber(options.seed as string | undefined, '--seed') ?? settings.seed;
    const path = (options.path as string | undefined) ?? settings.path;
    const target = (options.target as string | undefined) ?? 'server';
    if (target !== 'server' && target !== 'mock') fail(`--target must be server or mock, got "${target}"`);
    if (target === 'mock' && !baseUrl) fail('--target mock needs --base-url (the running quotes-mock)');
    if (target === 'mock' && Object.keys(keys).length > 0) fail('--target mock takes no keys: the mock accepts any');
    if (target === 'mock' && maxCallsPerKey !== undefined)
      fail('--max-calls-per-key is for a server: the mock spends no key allowance');
    const mock = options['no-mock'] ? false : options.mock === true || baseUrl === undefined;
    const wait = wholeNumber(options.wait as string | undefined, '--wait') ?? 0;
    if (wait < 0 || wait > 3600) fail('--wait must be from 0 to 3600 seconds');
    if (wait > 0 && !baseUrl) fail('--wait needs --base-url (a server the suite starts is waited for anyway)');

    if (baseUrl) await waitForTarget(baseUrl, wait, log);
    log(
      baseUrl
        ? `target: ${baseUrl}${target === 'mock' ? ' (a mock)' : ''}`
        : 'target: the real server on a fresh database',
    );
    log(`fast-check seed ${seed}, numRuns ${runs}`);
    const report = await runConformance({
      baseUrl,
      keys: given,
      dredd: layers.includes('dredd'),
      properties: layers.includes('properties'),
      mock,
      targetIsMock: target === 'mock',
      propertyOptions: { numRuns: runs, seed, path },
      maxCallsPerKey,
      local: { corpusSize: settings.corpusSize, corpusSeed: settings.corpusSeed, databaseUrl: settings.databaseUrl },
      log,
    });
    report.note(`Total time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    write(report);
    output.stdout(`${report.format({ verbose })}\n`);
    return report.count('failed') > 0 ? 1 : 0;
  } catch (error) {
    // Failures of the target are checks in the report; anything thrown means the run itself could
    // not happen or finish. One line per reason, unless --verbose asks for the stack.
    const expected = error instanceof RunNotPossible;
    const message = error instanceof Error ? error.message : String(error);
    const reason = expected ? message : `the run stopped: ${message.split('\n')[0]}`;
    try {
      write(Report.notPossible(reason, Date.now() - started));
    } catch (writing) {
      output.stderr(`conformance: cannot write the report: ${writing instanceof Error ? writing.message : writing}\n`);
    }
    for (const line of reason.split('\n')) output.stderr(`conformance: ${line}\n`);
    if (verbose && error instanceof Error && error.stack) output.stderr(`${error.stack}\n`);
    return 2;
  }
}
