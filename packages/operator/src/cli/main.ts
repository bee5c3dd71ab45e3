#!/usr/bin/env node
import { processIo } from '@quotes/service-base';
import { createAdminCli } from './adminCli.js';

const cli = createAdminCli(processIo);
const [command, subcommand] = process.argv.slice(2);

// The console stops itself on a signal (server, then database); every other command is interrupted.
if (command !== 'console' || subcommand === 'link') {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      process.stderr.write(`quotes-admin: interrupted (${signal})\n`);
      void cli.closeOpenDatabases().finally(() => process.exit(code));
    });
  }
}

process.exitCode = await cli.run(process.argv.slice(2));
