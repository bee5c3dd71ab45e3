#!/usr/bin/env node
import { runCommandLine } from './commandLine.js';

process.exitCode = await runCommandLine(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
