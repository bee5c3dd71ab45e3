import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type RunningServer, setUsage, startThrowawayServer, type ThrowawayServer } from '@quotes/server';
import { browserSkipReason, launchChromium } from '@quotes/docs/testing';
import { type PageWindow, servePage } from './support/clientPage.js';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { published } from './support/packedTarballs.js';

// The three published packages as their users get them: packed with npm, installed from the
// tarballs (packed once for the run: support/packedTarballs.ts) into a fresh project under the system's temporary folder (no node_modules of this
// repository above it), their other dependencies from the registry, and used only through what
// the install put there.
const run = promisify(execFile);
const fixture = fileURLToPath(new URL('./fixture/', import.meta.url));

let project: string;
const started: ChildProcess[] = [];
let service: ThrowawayServer | undefined;
let server: RunningServer | undefined;
/** The installed quotes-mock, once its test started it. */
let mockStarted: Promise<string> | undefined;

/** Runs a command in the project; resolves with its output and exit code, whatever the code. */
async function inProject(
  command: string,
  args: string[],
  timeoutMs = 120_000,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd: project, timeout: timeoutMs, maxBuffer: 64 << 20 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    };
  }
}

const bin = (name: string) => join(project, 'node_modules', '.bin', name);

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'quotes-consumer-'));
  const packed = Object.values(inject('packedTarballs'));
  await writeFile(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'quotes-consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  await cp(fixture, project, { recursive: true });
  const install = await inProject(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packed, 'typescript@7.0.2', '@types/node@24.19.2'],
    180_000,
  );
  expect(install.stderr).not.toMatch(/ERR!/);
  expect(install.code).toBe(0);
  // Prism takes seconds to start: it does so while the first tests run. Each test that calls the
  // mock still awaits it, whichever runs first; a failed start fails those tests.
  installedMock().catch(() => undefined);
}, 360_000);

afterAll(async () => {
  for (const child of started) {
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  }
  await Promise.all(started.map((child) => (child.exitCode === null ? once(child, 'exit') : undefined)));
  await service?.close();
  if (project) await rm(project, { recursive: true, force: true });
});

/** The installed quotes-mock, started once for every test that calls it, whichever runs first. */
function installedMock(): Promise<string> {
  mockStarted ??= (async () => {
    const mock = spawn(bin('quotes-mock'), ['--port', '0'], {
      cwd: project,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(mock);
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`quotes-mock did not start: ${output}`)), 60_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /on (http:\/\/\S+) \(reference page/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      mock.stdout!.on('data', read);
      mock.stderr!.on('data', read);
      mock.once('exit', (code) => reject(new Error(`quotes-mock exited ${code}: ${output}`)));
    });
    return url;
  })();
  return mockStarted;
}

describe('installed from the tarballs into a fresh project', () => {
  it('resolves nothing from above the project: no node_modules in any folder around it', () => {
    const around: string[] = [];
    for (let folder = dirname(project); folder !== dirname(folder); folder = dirname(folder)) {
      if (existsSync(join(folder, 'node_modules'))) around.push(folder);
    }
    expect(around).toEqual([]);
  });

  it('installs nothing of this repository but the three packages', async () => {
    const { stdout } = await inProject('npm', ['ls', '--all', '--json']);
    const names = new Set<string>();
    const walk = (dependencies: Record<string, { dependencies?: Record<string, unknown> }> = {}) => {
      for (const [name, node] of Object.entries(dependencies)) {
        names.add(name);
        walk(node.dependencies as Record<string, { dependencies?: Record<string, unknown> }>);
      }
    };
    walk(
      (JSON.parse(stdout) as { dependencies: Record<string, { dependencies?: Record<string, unknown> }> }).dependencies,
    );
    expect([...names].filter((name) => name.startsWith('@quotes/')).sort()).toEqual([...published].sort());
    const client = JSON.parse(await readFile(join(project, 'node_modules/@quotes/client/package.json'), 'utf8'));
    expect(client.dependencies ?? {}).toEqual({});
  });

  it('the client typechecks strictly against its own declarations', async () => {
    const result = await inProject(bin('tsc'), ['-p', '.']);
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.code).toBe(0);
  });

  it('quotes-mock serves the contract and the reference page, and the client calls it', async () => {
    const url = await installedMock();
    const docs = await fetch(`${url}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('/docs/assets/scalar-standalone.js');
    for (const asset of ['scalar-standalone.js', 'reference-initializer.js', 'reference-page.css']) {
      const served = await fetch(`${url}/docs/assets/${asset}`);
      expect(served.status, asset).toBe(200);
      await served.body?.cancel();
    }

    const result = await inProject('node', ['useClient.ts', url, 'any-key-for-the-mock']);
    expect(result.stderr).toBe('');
    // The mock answers from its example quotes, fitting the filters (Grief & Loss, Modern), every key on its default plan.
    expect(JSON.parse(result.stdout)).toMatchObject({
      text: expect.any(String),
      era: 'Modern',
      pageSize: 2,
      problem: '401 missing-api-key: fix the key',
      walked: 0,
      tier: 'professional',
    });
  });

  it("the reference page's JavaScript samples typecheck against the installed client and run against the installed mock", async () => {
    const mockUrl = await installedMock();
    const document = (await (await fetch(`${mockUrl}/docs/reference.json`)).json()) as {
      paths: Record<
        string,
        Record<'get' | 'post', { operationId: string; 'x-codeSamples': Array<{ label: string; source: string }> }>
      >;
    };
    const operations = Object.values(document.paths).map((pathItem) => pathItem.get ?? pathItem.post);
    // What the page replaces with its own origin, as it tells its initializer.
    const page = await (await fetch(`${mockUrl}/docs`)).text();
    const sampleOrigin = /data-sample-origin="([^"]+)"/.exec(page)?.[1];
    expect(sampleOrigin).toMatch(/^http:\/\//);
    // The mock's page lists the four /v1 operations and no key request: the mock issues no keys.
    expect(operations.map((operation) => operation.operationId).sort()).toEqual([
      'getRandomQuote',
      'getUsage',
      'listFilterValues',
      'listQuotes',
    ]);
    for (const { operationId, 'x-codeSamples': samples } of operations) {
      const sample = samples.find((candidate) => candidate.label === '@quotes/client');
      expect(sample, operationId).toBeDefined();
      // As the page does: the sample calls the server that served it.
      await writeFile(join(project, `sample-${operationId}.ts`), sample!.source.replaceAll(sampleOrigin!, mockUrl));
    }
    const typecheck = await inProject(bin('tsc'), ['-p', '.']);
    expect(`${typecheck.stdout}${typecheck.stderr}`).toBe('');
    expect(typecheck.code).toBe(0);
    for (const { operationId } of operations) {
      const result = await inProject('node', [`sample-${operationId}.ts`]);
      expect(result.stderr, operationId).toBe('');
      expect(result.code, operationId).toBe(0);
      // console.log(data, rateLimit) where the call is counted (the allowance read from the
      // headers, an object), console.log(data) for quotes-usage (never counted).
      const printed = operationId === 'getUsage' ? /^\{[\s\S]*\}\s*$/ : /^\{[\s\S]*\}\s+\{[\s\S]*\}\s*$/;
      expect(result.stdout, operationId).toMatch(printed);
    }
  });

  it('quotes-conformance --target mock passes the installed quotes-mock, listing what only a server can show as skipped', async () => {
    const mockUrl = await installedMock();
    const result = await inProject(bin('quotes-conformance'), ['--base-url', mockUrl, '--target', 'mock']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/\n\d+ passed, 0 failed\n?$/);
    expect(result.stdout).toContain(
      'SKIP counting and the allowance headers of real calls: the mock counts each key value in its own memory',
    );
  });

  describe('against the real server', () => {
    let keysFile: string;

    beforeAll(async () => {
      service = await startThrowawayServer({ corpusSize: 3000, corpusSeed: 7, logLevel: 'silent' });
      ({ server } = service);
      const operator = server.operator;
      const keys: Record<string, string> = {};
      for (const plan of ['trial', 'starter', 'professional', 'platform'])
        keys[plan] = (await operator.createKey({ client: `consumer ${plan}`, plan })).key;
      const revoked = await operator.createKey({ client: 'consumer revoked', plan: 'starter' });
      await operator.revokeKey(revoked.id, 'consumer test');
      keys.revoked = revoked.key;
      keys.expired = (
        await operator.createKey({
          client: 'consumer expired',
          plan: 'starter',
          expiresAt: new Date(Date.now() - 86_400_000),
          // The operator API refuses a past expiry unless asked: this fixture needs an expired key.
          allowPastExpiry: true,
        })
      ).key;
      const exhausted = await operator.createKey({ client: 'consumer used up', plan: 'starter' });
      await setUsage(server.database, exhausted.id, (await operator.usage(exhausted.id)).limit ?? 0);
      keys.exhausted = exhausted.key;
      keysFile = join(project, 'keys.json');
      await writeFile(keysFile, JSON.stringify(keys), { mode: 0o600 });
    }, 180_000);

    it('the client calls it, paging included', async () => {
      const key = JSON.parse(await readFile(keysFile, 'utf8')).platform as string;
      const result = await inProject('node', ['useClient.ts', server!.url, key, 'walk']);
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toMatchObject({
        era: 'Modern',
        problem: '401 missing-api-key: fix the key',
        walked: 120,
        tier: 'platform',
      });
    });

    it('a page on another origin runs unchanged against the mock, then the server; a key without its origin gets a readable 403', async (context) => {
      if (browserSkipReason) {
        context.skip(browserSkipReason);
        return;
      }
      const mockUrl = await installedMock();
      const page = await servePage(join(project, 'node_modules/@quotes/client/dist'));
      const browser = await launchChromium();
      try {
        const allowed = await server!.operator.createKey({
          client: 'consumer web app',
          plan: 'starter',
          allowedOrigins: [page.origin],
        });
        const elsewhere = await server!.operator.createKey({
          client: 'consumer other site',
          plan: 'starter',
          allowedOrigins: ['https://app.example'],
        });
        const tab = await browser.newPage();
        await tab.goto(`${page.origin}/`);
        await tab.waitForFunction(() => typeof (globalThis as unknown as PageWindow).callQuotes === 'function');
        const call = (baseUrl: string, apiKey: string) =>
          tab.evaluate(
            ([base, key]) => (globalThis as unknown as PageWindow).callQuotes(base!, key!),
            [baseUrl, apiKey],
          );

        const fromMock = await call(mockUrl, 'any-key-for-the-mock');
        // Every key on the mock is on its default plan, professional.
        expect(fromMock).toMatchObject({ ok: true, status: 200, allowanceLimit: 50000 });
        expect(fromMock.remaining).toEqual(expect.any(Number));

        const fromServer = await call(server!.url, allowed.key);
        expect(fromServer).toMatchObject({ ok: true, status: 200, allowanceLimit: 10000, remaining: 9999 });
        expect(fromServer.requestId).toEqual(expect.any(String));

        const refused = await call(server!.url, elsewhere.key);
        expect(refused).toMatchObject({ ok: false, status: 403, code: 'origin-not-allowed' });
        expect(refused.detail).toContain(page.origin);
        expect(refused.requestId).toEqual(expect.any(String));
        expect((await server!.operator.usage(elsewhere.id)).calls).toBe(0);
      } finally {
        await browser.close();
        await page.close();
      }
    });

    it('quotes-conformance passes it and writes JUnit and JSON reports that list every check', async () => {
      const result = await inProject(
        bin('quotes-conformance'),
        [
          '--base-url',
          server!.url,
          '--keys-file',
          keysFile,
          '--runs',
          '300',
          '--wait',
          '30',
          '--report',
          'junit=out.xml',
          '--report',
          'json=out.json',
        ],
        170_000,
      );
      expect(result.stdout, result.stderr).toMatch(/\n\d+ passed, 0 failed\n?$/);
      expect(result.code).toBe(0);

      const xml = await readFile(join(project, 'out.xml'), 'utf8');
      expect(XMLValidator.validate(xml)).toBe(true);
      const suites = new XMLParser({
        ignoreAttributes: false,
        attributeNamePrefix: '',
        isArray: (name) => ['testsuite', 'testcase'].includes(name),
      }).parse(xml).testsuites as {
        tests: string;
        failures: string;
        testsuite: Array<{ name: string; testcase: Array<{ name: string }> }>;
      };
      const json = JSON.parse(await readFile(join(project, 'out.json'), 'utf8')) as {
        passed: number;
        failed: number;
        checks: Array<{ layer: string; name: string }>;
      };
      const cases = suites.testsuite.flatMap((suite) =>
        suite.testcase.map((testcase) => `${suite.name}: ${testcase.name}`),
      );
      expect(cases).toEqual(json.checks.map((check) => `${check.layer}: ${check.name}`));
      expect(Number(suites.tests)).toBe(json.checks.length);
      expect(suites.failures).toBe('0');
      console.log(
        `quotes-conformance from the tarball: ${json.passed} passed, ${json.failed} failed, ${cases.length - json.passed - json.failed} skipped`,
      );
      expect(json.failed).toBe(0);
      // Every documented response of every operation is one Dredd testcase.
      expect(cases.filter((name) => name.startsWith('Layer 1 Dredd (server): /v1/')).length).toBeGreaterThanOrEqual(20);
      expect(cases.some((name) => name.startsWith('Layer 3 properties'))).toBe(true);
      // Keys never reach a report.
      for (const key of Object.values(JSON.parse(await readFile(keysFile, 'utf8')) as Record<string, string>)) {
        expect(xml).not.toContain(key);
      }
    });

    it('quotes-conformance with a wrong key: exit 2 before any check, one line naming the role, and a JUnit file saying so', async () => {
      await writeFile(join(project, 'wrong-keys.json'), JSON.stringify({ trial: 'qk_notreal' }));
      const result = await inProject(bin('quotes-conformance'), [
        '--base-url',
        server!.url,
        '--keys-file',
        'wrong-keys.json',
        '--report',
        'junit=wrong.xml',
      ]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      const [line, ...others] = result.stderr.split('\n').filter((text) => text.startsWith('conformance: '));
      expect(others).toEqual([]);
      expect(line).toMatch(/^conformance: keys file: role "trial" \(qk_no…\) answered 401 invalid-api-key: /);
      const xml = await readFile(join(project, 'wrong.xml'), 'utf8');
      expect(XMLValidator.validate(xml)).toBe(true);
      expect(xml).toContain('errors="1"');
      expect(xml).toContain('<error message="keys file: role &quot;trial&quot; (qk_no…) answered 401');
      expect(xml).not.toContain('qk_notreal');
    });
  });

  it('quotes-conformance against nothing listening: exit 2 and one line, no stack', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const result = await inProject(bin('quotes-conformance'), ['--base-url', `http://127.0.0.1:${port}`]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `conformance: cannot reach http://127.0.0.1:${port} (ECONNREFUSED); --wait SECONDS to wait for it`,
    ]);
  });

  it('quotes-mock with a bad port: exit 2 and one line', async () => {
    const result = await inProject(bin('quotes-mock'), ['--port', 'forty']);
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      'quotes-mock: --port must be a port number (0-65535), got "forty"',
    ]);
  });

  it('quotes-conformance with a bad flag: exit 2 and one line', async () => {
    const result = await inProject(bin('quotes-conformance'), [
      '--report',
      'html=x.html',
      '--base-url',
      'http://127.0.0.1:1',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      'conformance: --report must be junit=PATH or json=PATH, got "html=x.html"',
    ]);
  });
});
