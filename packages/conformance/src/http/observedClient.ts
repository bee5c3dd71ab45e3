import { requestLine } from '../report/requestLine.js';
import type { ObservedResponse, ValidationIssue } from '../validation/contractValidator.js';
import type { ResponseLedger } from '../validation/responseLedger.js';

export interface Exchange {
  readonly request: string;
  readonly response: ObservedResponse;
  /** The parsed body when it is JSON, else undefined. */
  readonly json: unknown;
  /** What Layer 2 found wrong with this response. */
  readonly issues: readonly ValidationIssue[];
  /** From sending the request to the last byte of the body. */
  readonly durationMs: number;
}

/**
 * The only way the suite talks HTTP to a target outside Dredd: every response is recorded in
 * the ledger (and so validated against the contract) before the caller sees it.
 */
export class ObservedClient {
  constructor(
    readonly baseUrl: string,
    private readonly ledger: ResponseLedger,
    private readonly source: string,
  ) {}

  /**
   * `pathAndQuery` is sent as written (a raw query string, so generated requests can carry `+`,
   * repeated parameters or odd encodings exactly as a client would).
   */
  get(pathAndQuery: string, headers: Record<string, string> = {}): Promise<Exchange> {
    return this.request('GET', pathAndQuery, headers);
  }

  async request(method: string, pathAndQuery: string, headers: Record<string, string> = {}): Promise<Exchange> {
    const url = `${this.baseUrl}${pathAndQuery}`;
    const started = performance.now();
    const response = await fetch(url, { method, headers, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
    const body = await response.text();
    const durationMs = performance.now() - started;
    const observed: ObservedResponse = {
      method,
      path: new URL(url).pathname.slice(new URL(this.baseUrl).pathname.replace(/\/$/, '').length),
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body,
    };
    const request = requestLine(method, pathAndQuery, Object.keys(headers));
    const issues = this.ledger.record(this.source, request, observed, durationMs);
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    return { request, response: observed, json, issues, durationMs };
  }
}
