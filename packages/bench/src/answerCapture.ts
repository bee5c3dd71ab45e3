import { writeFile } from 'node:fs/promises';

/** What the server answered one URL with, as the floor replays it. */
export interface CapturedAnswer {
  status: number;
  contentType: string | null;
  /**
   * The other headers the server answered with, but those Node writes for any answer (Date,
   * Connection, Keep-Alive, Content-Length, Transfer-Encoding): the floor sends them too, so the
   * load generator reads as many bytes from the floor as from the server. Absent in answers
   * captured before they were kept.
   */
  headers?: Record<string, string>;
  /** base64: a 304 has none, a problem is JSON, either way bytes. */
  body: string;
}

/** Headers Node's HTTP server writes on every answer of its own, the floor's included. */
const writtenByNode = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'content-type',
]);

function replayedHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of headers) if (!writtenByNode.has(name)) kept[name] = value;
  return kept;
}

/**
 * Asks the server each URL once, a few at a time, and keeps its exact answer. A random quote's
 * answer is one draw among many of about the same size: close enough for the floor.
 */
export async function captureAnswers(
  origin: string,
  paths: readonly string[],
  headers: Record<string, string>,
  concurrency = 8,
): Promise<Record<string, CapturedAnswer>> {
  const captured: Record<string, CapturedAnswer> = {};
  const distinct = [...new Set(paths)];
  let next = 0;
  const worker = async () => {
    while (next < distinct.length) {
      const path = distinct[next++] as string;
      const response = await fetch(`${origin}${path}`, { headers, signal: AbortSignal.timeout(60_000) });
      const body = Buffer.from(await response.arrayBuffer());
      captured[path] = {
        status: response.status,
        contentType: response.headers.get('content-type'),
        headers: replayedHeaders(response.headers),
        body: body.toString('base64'),
      };
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return captured;
}

export async function writeAnswers(file: string, answers: Record<string, CapturedAnswer>): Promise<void> {
  await writeFile(file, JSON.stringify(answers));
}
