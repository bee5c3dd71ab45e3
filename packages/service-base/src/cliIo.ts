/**
 * What a command-line program reads and writes, passed in rather than taken from `process`, so
 * the same program runs as a process (processIo) and as a function in tests.
 */
export interface CliIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: NodeJS.WritableStream & { readonly isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { readonly isTTY?: boolean };
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
}

export const processIo: CliIo = {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
};
