import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { haproxyTool } from '../src/debianTool.js';
import { debianToolForTests } from './support/debianTool.js';

const haproxyConfig = fileURLToPath(new URL('../../../deploy/haproxy/haproxy.cfg', import.meta.url));

const found = debianToolForTests(haproxyTool, 'the HAProxy configuration check');

describe.skipIf('skipReason' in found)("the deployment's HAProxy configuration", () => {
  it('is one HAProxy accepts', async () => {
    const { stdout } = await promisify(execFile)((found as { path: string }).path, ['-c', '-f', haproxyConfig]);
    expect(stdout).toContain('Configuration file is valid');
  });
});
