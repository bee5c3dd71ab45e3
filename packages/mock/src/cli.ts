import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { prismMockArgs } from './prism.js';

// `npm run mock`: Prism in the foreground on MOCK_HOST:MOCK_PORT (default 127.0.0.1:4010).
const host = process.env.MOCK_HOST || '127.0.0.1';
const portText = process.env.MOCK_PORT || '4010';
if (!/^\d+$/.test(portText) || Number(portText) > 65_535) {
  console.error(`MOCK_PORT must be a port number (0-65535), got "${portText}"`);
  process.exit(2);
}

const child = spawn(process.execPath, prismMockArgs(host, Number(portText)), { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  // Ctrl-C reaches Prism through the terminal's process group; a plain `kill` of this process
  // would not, so pass it on instead of dying and leaving Prism listening.
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  process.exitCode = code ?? 128 + (signal ? constants.signals[signal] : 0);
});
