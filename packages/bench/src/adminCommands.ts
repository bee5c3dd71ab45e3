import { PassThrough, Readable } from 'node:stream';
import { createAdminCli } from '@quotes/operator/cli';

/** A stream that keeps what is written to it, as text. */
function captured(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * Runs one `quotes-admin` command line in the bench's process (the CLI as a function, as its own
 * tests run it) on the bench's environment and `env`, and returns what it printed on stdout; a
 * non-zero exit fails with its stderr. A process per command spent about a second starting Node
 * and loading the CLI, for a key made in milliseconds.
 */
export async function runAdmin(env: NodeJS.ProcessEnv, args: readonly string[]): Promise<string> {
  const stdout = captured();
  const stderr = captured();
  const cli = createAdminCli({
    env: { ...process.env, ...env },
    stdout: stdout.stream,
    stderr: stderr.stream,
    // Closed and not a terminal, as a pipeline gives it: a command never waits on a prompt.
    stdin: Readable.from([]),
  });
  let code: number;
  try {
    code = await cli.run(args);
  } finally {
    await cli.closeOpenDatabases();
  }
  // PassThrough delivers what was written on the next tick.
  await new Promise((resolve) => setImmediate(resolve));
  if (code !== 0) throw new Error(`quotes-admin ${args.join(' ')} failed (${code}): ${stderr.text().trim()}`);
  return stdout.text();
}
