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
