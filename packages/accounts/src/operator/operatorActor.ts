import { hash } from 'node:crypto';
import { userInfo } from 'node:os';

/** The operator at this terminal as the audit names them: `os:` and the OS user running the command. */
export function osActor(): string {
  try {
    return `os:${userInfo().username}`;
  } catch {
    // A uid without a passwd entry (some containers) still names someone.
    return `os:uid ${process.getuid?.() ?? 'unknown'}`;
  }
}

/**
 * A key holder as the audit names them: `holder:` and the first 16 hex digits of the SHA-256 of
 * their canonical address, stable per person without the address in the actor column.
 */
export const holderActorOf = (emailCanonical: string): string =>
  `holder:${hash('sha256', emailCanonical, 'hex').slice(0, 16)}`;
