#!/usr/bin/env node
// `npx quotes-admin ...`: stdout carries only the command's answer, so `> billing.csv` is the CSV.
// Inside the repository it first brings the build up to date with turbo, silently (cached: about
// 0.2 s when nothing changed); a failed build is one line. Installed from a package, it runs dist/.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const turbo = `${root}node_modules/.bin/turbo`;
const cli = new URL('../dist/cli/main.js', import.meta.url);

function fail(message) {
  process.stderr.write(`quotes-admin: ${message}\n`);
  process.exit(1);
}

/** Resolves to turbo's exit code; its output is dropped (`npm run build` shows it). */
function build() {
  return new Promise((resolve) => {
    const child = spawn(turbo, ['run', 'build', '--filter=@quotes/operator...', '--output-logs=errors-only'], {
      cwd: root,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.resume();
    child.stderr.resume();
    // A real rebuild takes seconds: say so on a terminal rather than sit silent.
    const slow = setTimeout(() => {
      if (process.stderr.isTTY) process.stderr.write('quotes-admin: building the changed packages...\n');
    }, 1000);
    child.on('error', () => resolve(-1));
    child.on('close', (code) => {
      clearTimeout(slow);
      resolve(code ?? 1);
    });
  });
}

if (existsSync(`${root}turbo.json`) && existsSync(turbo)) {
  const code = await build();
  if (code === -1) fail(`could not run ${turbo}: run npm ci first`);
  if (code !== 0) fail('the build failed: npm run build shows why');
}
if (!existsSync(cli)) fail('not built: run npm run build first');
await import(cli.href);
