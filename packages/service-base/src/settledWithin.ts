/**
 * Waits for `work` to settle, for at most `ms`: true when it settled (fulfilled or rejected),
 * false when the time ran out first. What it settled with is not read; the timer is cleared
 * either way, so nothing is left pending.
 */
export async function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, ms), false);
  });
  const settled = () => true;
  try {
    return await Promise.race([work.then(settled, settled), late]);
  } finally {
    clearTimeout(timer);
  }
}
