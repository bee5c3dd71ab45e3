import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/**
 * X-Forwarded-For cut to the addresses a reader can use: read from the right (the nearest proxy's
 * entry first), as proxy-addr reads it, up to the first entry that is not an IP address; that
 * entry and all left of it are dropped. Without this, proxy-addr hands the unreadable entry on as
 * the client's address (`qk_...`, a name, `garbage`), into the request log and into the per-network
 * bounds of key requests, which cannot parse it (a 500). With nothing usable left the header goes,
 * and the client is the proxy that connected. Every reader of the header (keyRequests/clientAddress.ts)
 * sees the cut header; a listener of the server's 'request' event, before the app.
 */
export function dropUnreadableForwardedFor(request: IncomingMessage): void {
  const header = request.headers['x-forwarded-for'];
  if (header === undefined) return;
  const entries = (Array.isArray(header) ? header.join(',') : header).split(',');
  const kept: string[] = [];
  for (let at = entries.length - 1; at >= 0; at--) {
    const entry = entries[at]!.trim();
    if (isIP(entry) === 0) break;
    kept.unshift(entry);
  }
  if (kept.length === entries.length) return;
  if (kept.length === 0) delete request.headers['x-forwarded-for'];
  else request.headers['x-forwarded-for'] = kept.join(', ');
}
