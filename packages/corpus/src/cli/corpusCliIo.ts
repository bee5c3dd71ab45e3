/** Where the corpus commands read and write: the process's streams, or a test's (the operator CLI's CliIo fits). */
export interface CorpusCliIo {
  readonly stdout: NodeJS.WritableStream & { readonly isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { readonly isTTY?: boolean };
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
}

export const processStreams: CorpusCliIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin };
