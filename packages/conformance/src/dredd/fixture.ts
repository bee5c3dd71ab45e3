/**
 * The contract between the TypeScript side and hooks/dreddHooks.cjs: everything a transaction
 * needs is decided and provisioned here beforehand; the hooks only apply it. Written as JSON to
 * the file named by QUOTES_DREDD_FIXTURE.
 */
export interface TransactionShape {
  /** Why this request reaches this response, e.g. "trial key with 2 filters -> plan-limit". */
  readonly purpose: string;
  /** Path and query to send (replacing the contract's example request), e.g. `/v1/quotes-random?era=Jurassic`. */
  readonly uri?: string;
  /** Headers to set on the request (credentials, `Prefer` for the mock). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Body to send instead of the contract's example request body (operations with one), as JSON ... */
  readonly body?: string;
  /** ... and as a form, for the transaction whose example request is form-encoded. */
  readonly formBody?: string;
  /** Send the same request this many times before the transaction (to reach a bound such as an hourly limit). */
  readonly repeatBefore?: number;
  /** Headers to remove from the contract's example request. */
  readonly removeHeaders?: readonly string[];
  /** The problem `type` the response must carry, when the status alone is ambiguous (403: revoked / expired / plan-limit). */
  readonly expectProblemType?: string;
  /** For 400: the parameters `errors` must name. */
  readonly expectErrorParameters?: readonly string[];
  /** Take the database down around this transaction (503), through the control endpoint. */
  readonly outage?: boolean;
  /** Set only when this target cannot reach the response (e.g. no key of that kind given): the transaction is skipped and reported with this reason. */
  readonly skip?: string;
}

export interface DreddFixture {
  /** Transaction name -> how to shape it. A documented response without an entry fails. */
  readonly transactions: Readonly<Record<string, TransactionShape>>;
  /** The hooks append one JSON line per transaction: what was sent and what came back. */
  readonly recordPath: string;
  /** The hooks write their own account here; its absence means the hooks never loaded. */
  readonly reportPath: string;
  /** Base URL of the control endpoint (POST /outage/start, /outage/end), when outages are possible. */
  readonly controlUrl?: string;
}

/** One line of the record file. */
export interface RecordedTransaction {
  readonly name: string;
  readonly request: { readonly method: string; readonly uri: string; readonly headerNames: readonly string[] };
  readonly response: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: string;
  };
}

/** What the hooks report at the end of the run. */
export interface HooksReport {
  readonly loaded: true;
  readonly transactions: ReadonlyArray<{
    readonly name: string;
    readonly status: string | null;
    readonly message: string;
    /** From its beforeEach to the end of its afterEach (an outage's stop and start included); unset when skipped. */
    readonly durationMs?: number;
  }>;
  /** Transactions Dredd produced that the fixture has no shape for. */
  readonly unshaped: readonly string[];
  /** Shapes no transaction used (a renamed operation or summary). */
  readonly unused: readonly string[];
  readonly finished: boolean;
}
