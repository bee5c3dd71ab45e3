/**
 * A full collection, where the process was started with --expose-gc (npm start is): V8 returns
 * the bytes of Buffers let go only when it collects the objects that held them, and an old
 * generation at rest is seldom collected, so a corpus's held quotes let go at a reload stayed
 * resident while the next corpus's were read. Called once per reload, not on the request path.
 */
export function collectReleased(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
