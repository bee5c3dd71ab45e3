import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNodeScript } from '../src/childProcess.js';

describe('runNodeScript', () => {
  it('stops a script that outlives its deadline and fails with one line saying so', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'quotes-bench-test-'));
    const script = join(directory, 'hangs.mjs');
    await writeFile(script, 'setInterval(() => {}, 1000);\n');
    const started = Date.now();
    await expect(runNodeScript(script, [], {}, 500)).rejects.toThrow(
      /^hangs\.mjs did not finish within 0\.5 s, so it was stopped$/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('returns what a script printed when it ends in time', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'quotes-bench-test-'));
    const script = join(directory, 'prints.mjs');
    await writeFile(script, 'console.log("done");\n');
    await expect(runNodeScript(script, [], {}, 30_000)).resolves.toBe('done\n');
  });
});
