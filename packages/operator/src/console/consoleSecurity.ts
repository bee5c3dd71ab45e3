import { isIP } from 'node:net';
import type { RequestHandler } from 'express';
import ipaddr from 'ipaddr.js';
import { OperatorError } from '@quotes/accounts';
import { pageSecurityHeaders } from '@quotes/service-base';

/** The console's response headers: the signed-in pages' rule (served over plain HTTP on loopback). */
export const consoleHeaders: RequestHandler[] = pageSecurityHeaders();

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The Host names a request may carry: the address bound, and on loopback `localhost`. A page
 * of another site whose name was re-pointed at this address (DNS rebinding) sends its own
 * name and is refused. Bound to every interface, only IP literals pass: rebinding needs a name.
 */
export function allowedHost(boundHost: string, port: number): (hostHeader: string | undefined) => boolean {
  const bound = isIP(boundHost) === 6 ? `[${boundHost}]` : boundHost.toLowerCase();
  const wildcard = boundHost === '0.0.0.0' || boundHost === '::';
  const loopback = loopbackNames.has(bound) || boundHost.startsWith('127.');
  return (hostHeader) => {
    if (!hostHeader) return false;
    const match = /^(\[[0-9a-f:.]+\]|[^:]+)(?::(\d+))?$/i.exec(hostHeader.trim().toLowerCase());
    if (!match || Number(match[2] ?? 80) !== port) return false;
    const name = match[1]!;
    if (name === bound) return true;
    if (loopback && loopbackNames.has(name)) return true;
    return wildcard && isIP(name.replace(/^\[|\]$/g, '')) !== 0;
  };
}

/** Whether `host` (an IP address or `localhost`) is reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  if (!ipaddr.isValid(host)) return false;
  return ipaddr.process(host).range() === 'loopback';
}

/** The flag that lets the console listen beyond loopback, named for what it costs. */
export const remoteFlag = '--allow-remote-insecure';

/**
 * The console speaks plain HTTP: off loopback its one-time sign-in token and its session cookie
 * cross the network readable by anyone on the path. So it stays on loopback (reached from afar
 * through an SSH tunnel) unless the operator accepts that with remoteFlag, and then it is said
 * at every start. Returns that warning (null on loopback); throws the refusal.
 */
export function requireConsoleHost(host: string, allowRemoteInsecure: boolean): string | null {
  if (isLoopbackHost(host)) return null;
  if (!allowRemoteInsecure)
    throw new OperatorError(
      `--host ${host} is not loopback: the console speaks plain HTTP, so its sign-in link and session cookie would cross the network in clear text; reach it through an SSH tunnel (ssh -L 4100:127.0.0.1:4100 HOST), or pass ${remoteFlag} to accept that`,
      'refused',
    );
  return `quotes-admin: WARNING: the console listens on ${host}, beyond loopback, over plain HTTP (${remoteFlag}): its sign-in link and session cookie cross the network in clear text, readable and reusable by anyone on the path`;
}
