import type { IncomingMessage } from 'node:http';
import type { ContractDocument } from '@quotes/contract';
import { createRequire } from 'node:module';

/** The contract's two served forms, each naming the origin that serves it as its only server. */
export interface ServedContract {
  yaml(origin: string): string;
  json(origin: string): string;
}

const description = 'The server that served this document';
// Stands in for the origin while the texts are built once; the origin is put in per request.
const placeholder = 'http://origin.placeholder.invalid';

function splitAt(text: string): (origin: string) => string {
  const [before, after, ...more] = text.split(placeholder);
  if (after === undefined || more.length > 0) throw new Error('servedContract: the placeholder must occur once');
  return (origin) => `${before}${origin}${after}`;
}

/**
 * `yamlText` (the contract file, served as written: comments and layout kept) and `document`
 * (served as JSON), with their `servers` replaced by the serving origin, so a code generator
 * pointed at `/openapi.yaml` calls the server it was read from.
 */
export function servedContract(yamlText: string, document: ContractDocument): ServedContract {
  // Loaded here, not at import: a server loads this module at start, and YAML only at the first request for the contract.
  const { isMap, isScalar, parseDocument } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  const parsed = parseDocument(yamlText);
  const servers = isMap(parsed.contents)
    ? parsed.contents.items.find((pair) => isScalar(pair.key) && pair.key.value === 'servers')?.value
    : undefined;
  const range = (servers as { range?: [number, number, number] } | undefined)?.range;
  if (!range) throw new Error('servedContract: the contract has no servers list');
  const [start, , end] = range;
  const indent = ' '.repeat(start - yamlText.lastIndexOf('\n', start) - 1);
  const entry = `- url: "${placeholder}"\n${indent}  description: ${description}\n`;
  const json = `${JSON.stringify({ ...document, servers: [{ url: placeholder, description }] }, null, 2)}\n`;
  return {
    yaml: splitAt(`${yamlText.slice(0, start)}${entry}${yamlText.slice(end)}`),
    json: splitAt(json),
  };
}

// A host name or an IPv4/IPv6 literal, and an optional port: nothing that could break out of a
// quoted string or point a generator at a path. Longer than a DNS name may be is refused too.
const hostHeader =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin a request reached: its protocol (`https` only where Express trusts a proxy that says
 * so) and its own `Host` header. A missing or malformed Host gives the address and port of the
 * socket it arrived on.
 */
export function requestOrigin(request: IncomingMessage & { protocol?: string }): string {
  const protocol = request.protocol === 'https' ? 'https' : 'http';
  const host = request.headers.host;
  if (host && host.length <= 261 && hostHeader.test(host)) return `${protocol}://${host}`;
  const address = (request.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return `${protocol}://${address.includes(':') ? `[${address}]` : address}:${request.socket.localPort}`;
}
