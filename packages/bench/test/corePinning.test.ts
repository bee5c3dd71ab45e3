import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { everyCore, pinToCore } from '../src/corePinning.js';

/** A process whose threads keep starting and ending: worker threads, one after another. */
const churn = `
const { Worker } = require('node:worker_threads');
const next = () => new Worker('', { eval: true }).once('exit', next);
for (let i = 0; i < 4; i++) next();
process.send('ready');
`;

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
});

describe('pinToCore', () => {
  it('pins a process whose threads end while it is pinned, and leaves out one gone', async () => {
    child = spawn(process.execPath, ['-e', churn], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    await new Promise((resolve) => child?.once('message', resolve));
    const pid = child.pid as number;
    for (let round = 0; round < 200; round++) await pinToCore([pid], round % 2 === 0 ? 0 : everyCore);
    child.kill('SIGKILL');
    await new Promise((resolve) => child?.once('exit', resolve));
    await expect(pinToCore([pid], 0)).resolves.toBeUndefined();
  });
});
