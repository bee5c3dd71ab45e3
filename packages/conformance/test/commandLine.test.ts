import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@quotes/server';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommandLine } from '../src/commandLine.js';
import { type LocalTarget, startLocalTarget } from '../src/target/localTarget.js';

// quotes-conformance as CI runs it against a deployment: the real server on a fresh database (as
// the suite starts it without --base-url), keys issued by its operator API, the command run
// in-process with its exit code, stdout and stderr.
let scratch: string;
let server: LocalTarget | undefined;
const keys: Record<string, string> = {};
const ids: Record<string, string> = {};

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'conformance-cli-'));
  server = await startLocalTarget({ corpusSize: 500, corpusSeed: 7 });
  const operator = server.operator;
  for (const plan of ['trial', 'starter', 'professional', 'platform']) {
    const issued = await operator.createKey({ client: `cli ${plan}`, plan, allowAnotherTrial: true });
    keys[plan] = issued.key;
    ids[plan] = issued.id;
  }
  const revoked = await operator.createKey({ client: 'cli revoked', plan: 'starter' });
  await operator.revokeKey(revoked.id, 'conformance command-line test');
  keys.revoked = revoked.key;
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCommandLine(
    args,
    {},
    { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
  );
  return { code, stdout, stderr };
}

async function keysFile(name: string, content: Record<string, string>): Promise<string> {
  const path = join(scratch, name);
  await writeFile(path, JSON.stringify(content), { mode: 0o600 });
  return path;
}

type Case = { name: string; time: string; error?: { message: string }; skipped?: unknown; failure?: unknown };

async function junitCases(path: string): Promise<Case[]> {
  const xml = await readFile(path, 'utf8');
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => ['testsuite', 'testcase'].includes(name),
  }).parse(xml) as { testsuites: { testsuite: Array<{ testcase: Case[] }> } };
  return parsed.testsuites.testsuite.flatMap((suite) => suite.testcase);
}

const errorLines = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('conformance: '));

describe('keys that do not answer as their roles say', () => {
  it('stop the run before any check: exit 2, one line per key naming role and answer, and a JUnit error saying so', async () => {
    const file = await keysFile('wrong.json', {
      trial: 'qk_notreal',
      starter: keys.platform!,
      expired: keys.revoked!,
      professional: keys.professional!,
    });
    const report = join(scratch, 'wrong.xml');
    const result = await run(['--base-url', server!.url, '--keys-file', file, '--report', `junit=${report}`]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(errorLines(result.stderr)).toEqual([
      expect.stringMatching(
        /^conformance: keys file: role "trial" \(qk_no…\) answered 401 invalid-api-key: .+; the role needs an active trial key$/,
      ),
      `conformance: keys file: role "starter" (${keys.platform!.slice(0, 11)}…) answered 200: an active platform key, no monthly limit; the role needs an active starter key`,
      expect.stringMatching(
        /^conformance: keys file: role "expired" \(qk_\w{8}…\) answered 403 revoked-api-key: .*; the role needs 403 expired-api-key$/,
      ),
    ]);
    const cases = await junitCases(report);
    expect(cases).toHaveLength(1);
    expect(cases[0]!.error?.message).toContain('role "trial" (qk_no…) answered 401 invalid-api-key');
    expect(Number(cases[0]!.time)).toBeGreaterThan(0);
    const written = await readFile(report, 'utf8');
    for (const key of Object.values(keys)) expect(written + result.stderr).not.toContain(key);
    // Nothing was checked: the professional key, the only good one, counted no call.
    expect((await server!.operator.usage(ids.professional!)).calls).toBe(0);
  });

  it('a flag names itself as the source', async () => {
    const result = await run(['--base-url', server!.url, '--key-revoked', keys.trial!]);
    expect(result.code).toBe(2);
    expect(errorLines(result.stderr)).toEqual([
      expect.stringMatching(
        /^conformance: --key-revoked: role "revoked" \(qk_\w{8}…\) answered 200: an active trial key, \d+ calls left; the role needs 403 revoked-api-key$/,
      ),
    ]);
  });
});

describe('a run CI can budget and read', () => {
  it('--max-calls-per-key holds on every key, the run says what it counted, and testcases carry their time', async () => {
    const budget = 25;
    const before = Object.fromEntries(
      await Promise.all(
        Object.entries(ids).map(async ([plan, id]) => [plan, (await server!.operator.usage(id)).calls] as const),
      ),
    );
    const file = await keysFile('good.json', {
      trial: keys.trial!,
      starter: keys.starter!,
      professional: keys.professional!,
      platform: keys.platform!,
      revoked: keys.revoked!,
    });
    const report = join(scratch, 'good.xml');
    const result = await run([
      '--base-url',
      server!.url,
      '--keys-file',
      file,
      '--runs',
      '400',
      '--seed',
      '5',
      '--max-calls-per-key',
      String(budget),
      '--report',
      `junit=${report}`,
    ]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stderr).toMatch(/--max-calls-per-key 25: \d+ of 400 generated requests, expected to count trial \d+/);
    const counted = /calls counted per key by this run: (.*)/.exec(result.stdout)?.[1] ?? '';
    for (const [plan, id] of Object.entries(ids)) {
      const spent = (await server!.operator.usage(id)).calls - before[plan]!;
      expect(spent).toBeLessThanOrEqual(budget);
      expect(counted).toContain(`${plan} ${spent}`);
    }
    const cases = await junitCases(report);
    const ran = cases.filter((testcase) => !('skipped' in testcase));
    const dredd = ran.filter((testcase) => testcase.name.startsWith('/v1/'));
    expect(dredd.length).toBeGreaterThan(10);
    for (const testcase of dredd) expect(Number(testcase.time), testcase.name).toBeGreaterThan(0);
    // Skips name their real cause: the keys not given.
    const skips = cases.filter((testcase) => 'skipped' in testcase).map((testcase) => JSON.stringify(testcase));
    expect(skips.join('\n')).not.toContain('no filter combination');
    expect(skips.join('\n')).toContain('needs an expired key (--key-expired)');
  });

  it('a budget smaller than the fixed checks stops the run before them', async () => {
    const result = await run([
      '--base-url',
      server!.url,
      '--key-professional',
      keys.professional!,
      '--max-calls-per-key',
      '2',
      '--report',
      `json=${join(scratch, 'small.json')}`,
    ]);
    expect(result.code).toBe(2);
    expect(errorLines(result.stderr)).toEqual([
      expect.stringMatching(
        /^conformance: --max-calls-per-key 2 is too small: the data search and the Dredd checks alone count \d+ calls on the professional key/,
      ),
    ]);
    const json = JSON.parse(await readFile(join(scratch, 'small.json'), 'utf8'));
    expect(json).toMatchObject({ passed: 0, failed: 0, errors: 1, checks: [{ status: 'error' }] });
  });

  it('an unreachable target still gets its report, saying why', async () => {
    const port = await freePort();
    const path = join(scratch, 'unreachable.xml');
    const result = await run(['--base-url', `http://127.0.0.1:${port}`, '--report', `junit=${path}`]);
    expect(result.code).toBe(2);
    const [only] = await junitCases(path);
    expect(only?.error?.message).toBe(
      `cannot reach http://127.0.0.1:${port} (ECONNREFUSED); --wait SECONDS to wait for it`,
    );
  });
});
