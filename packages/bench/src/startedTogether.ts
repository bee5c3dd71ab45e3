/**
 * Awaits starts made at once (servers, the floor, the throwaway cluster): their values, in order;
 * when any fails, `stopStarted` stops those that did start, and the first failure is thrown, so a
 * failed start leaves nothing of the run running.
 */
export async function startedTogether<T extends readonly unknown[] | []>(
  starts: T,
  stopStarted: () => Promise<unknown>,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = (await Promise.allSettled(starts)) as PromiseSettledResult<unknown>[];
  const values: unknown[] = [];
  for (const start of settled) {
    if (start.status === 'rejected') {
      await stopStarted();
      throw start.reason;
    }
    values.push(start.value);
  }
  return values as { -readonly [K in keyof T]: Awaited<T[K]> };
}
