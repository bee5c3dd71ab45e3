import { describe, expect, it } from 'vitest';

// The built module, as the bench runs it: the operator's CLI from its built entry (@quotes/operator/cli).
const { runAdmin } = (await import(
  new URL('../dist/adminCommands.js', import.meta.url).href
)) as typeof import('../src/adminCommands.js');

describe('runAdmin', () => {
  it('runs quotes-admin in this process and returns what it printed', async () => {
    expect(await runAdmin({}, ['keys', '--help'])).toMatch(/^Usage: quotes-admin keys /);
  });

  it("fails with the command line and the CLI's one-line error", async () => {
    await expect(runAdmin({}, ['keys', 'frobnicate'])).rejects.toThrow(
      /^quotes-admin keys frobnicate failed \(2\): quotes-admin: unknown command 'frobnicate'/,
    );
  });
});
