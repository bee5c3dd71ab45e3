import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { haproxyTool } from '../src/debianTool.js';
import { haproxyConfig } from '../src/haproxy.js';
import { debianToolForTests } from './support/debianTool.js';

const deployedHaproxy = fileURLToPath(new URL('../../../deploy/haproxy/haproxy.cfg', import.meta.url));

const found = debianToolForTests(haproxyTool, 'the HAProxy configuration check');

describe.skipIf('skipReason' in found)("the deployment's HAProxy configuration", () => {
  it('is one HAProxy accepts', async () => {
    const { stdout } = await promisify(execFile)((found as { path: string }).path, ['-c', '-f', deployedHaproxy]);
    expect(stdout).toContain('Configuration file is valid');
  });
});

describe("a test's HAProxy configuration", () => {
  const options = { program: 'haproxy', port: 18080, statsPort: 18404, servers: [{ name: 's1', port: 13001 }] };
  const deployed = readFileSync(deployedHaproxy, 'utf8');

  it("keeps the deployment's check interval unless one is asked for", () => {
    expect(haproxyConfig(deployed, options, '/tmp/admin.sock')).toContain(
      'default-server check inter 1s fall 2 rise 2 slowstart 5s',
    );
  });

  it.skipIf('skipReason' in found)(
    'takes a shorter one, the rest of the check line kept, and HAProxy accepts it',
    async () => {
      const config = haproxyConfig(deployed, { ...options, checkIntervalMs: 200 }, '/tmp/admin.sock');
      expect(config).toContain('default-server check inter 200ms fall 2 rise 2 slowstart 5s');
      const path = join(await mkdtemp(join(tmpdir(), 'quotes-haproxy-check-')), 'haproxy.cfg');
      writeFileSync(path, config);
      const { stdout } = await promisify(execFile)((found as { path: string }).path, ['-c', '-f', path]);
      expect(stdout).toContain('Configuration file is valid');
    },
  );

  it('names the setting missing when the deployment has no check interval to replace', () => {
    const withoutInter = deployed.replace(/ inter \S+/, '');
    expect(() => haproxyConfig(withoutInter, { ...options, checkIntervalMs: 200 }, '/tmp/admin.sock')).toThrow(
      'deploy/haproxy/haproxy.cfg lacks: check interval',
    );
  });
});
