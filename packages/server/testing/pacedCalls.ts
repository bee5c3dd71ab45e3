/** One paced call's answer status and when it was sent, in ms after the first. */
export interface PacedCall {
  readonly status: number;
  readonly at: number;
}

/**
 * `perSecond` calls a second for `seconds`, each sent on time whatever the answers before it;
 * `call(i)` sends the i-th and resolves with its status.
 */
export async function pacedCalls(
  perSecond: number,
  seconds: number,
  call: (index: number) => Promise<number>,
): Promise<PacedCall[]> {
  const started = performance.now();
  const calls: Promise<PacedCall>[] = [];
  for (let i = 0; i < perSecond * seconds; i++) {
    const wait = started + (i * 1000) / perSecond - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const at = performance.now() - started;
    calls.push(call(i).then((status) => ({ status, at })));
  }
  return Promise.all(calls);
}

/** Calls answered 200. */
export const served = (calls: readonly PacedCall[]) => calls.filter((call) => call.status === 200).length;
