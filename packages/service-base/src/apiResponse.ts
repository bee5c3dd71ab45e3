import type { Response } from 'express';
import type { Problem } from './problems.js';

/** A handler's answer; one function writes it, with the exact content type the contract names. */
export interface ApiResponse {
  readonly status: number;
  /** Already serialised JSON, as text or UTF-8: kept bodies are sent as they are; none on a 304. */
  readonly body?: string | Buffer;
  readonly headers?: Record<string, string>;
}

// Express's res.json()/res.type() append '; charset=utf-8'; the contract (and Dredd) expect the
// bare media types, so bodies are written with Node's own setHeader/end.
function send(
  response: Response,
  status: number,
  contentType: string,
  body: string | Buffer,
  headers: Record<string, string> | undefined,
): void {
  response.statusCode = status;
  if (headers) for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  response.setHeader('Content-Type', contentType);
  response.setHeader('Content-Length', typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  response.end(body);
}

export function sendApiResponse(response: Response, answer: ApiResponse): void {
  if (answer.status === 304) {
    // Not Modified has no body, so no Content-Type or Content-Length describing one.
    response.statusCode = 304;
    if (answer.headers) for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
    response.end();
    return;
  }
  send(response, answer.status, 'application/json', answer.body ?? '', answer.headers);
}

export function sendProblem(response: Response, problem: Problem, instance: string | undefined): void {
  send(response, problem.status, 'application/problem+json', JSON.stringify(problem.body(instance)), problem.headers);
}
