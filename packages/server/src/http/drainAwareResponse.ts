import { ServerResponse } from 'node:http';
import type { Express } from 'express';

const nodeWriteHead = ServerResponse.prototype.writeHead;

/**
 * Node's `writeHead`, adding `Connection: close` to every head written once the server drains,
 * so a kept-alive client moves on to another instance. Node writes every head through
 * `writeHead` (`end()` without one calls it too).
 */
export function drainAwareWriteHead(lifecycle: { readonly draining: boolean }): typeof nodeWriteHead {
  return function writeHead(this: ServerResponse, ...args: Parameters<typeof nodeWriteHead>) {
    if (lifecycle.draining && !this.headersSent) this.setHeader('Connection', 'close');
    return nodeWriteHead.apply(this, args);
  } as typeof nodeWriteHead;
}

/**
 * Installs drainAwareWriteHead on the app's response prototype (`app.response`, where Express
 * documents extending responses; Express gives every response that prototype, so a subclass
 * passed to `createServer` would be bypassed). Responses dispatched outside Express
 * (apiDispatch.ts) get it on themselves.
 *
 * Why not a Set of the responses in flight, visited when the drain starts: a long-lived Set that
 * takes and drops a response on every call keeps those responses, and all they reach, alive
 * through young-generation collections until the next full one (server README, "Memory on the
 * request path").
 */
export function drainAwareResponses(app: Express, lifecycle: { readonly draining: boolean }): void {
  app.response.writeHead = drainAwareWriteHead(lifecycle) as typeof app.response.writeHead;
}
