export { freePort } from '@quotes/database';

/** True while any process of the group led by `pid` is alive. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}
