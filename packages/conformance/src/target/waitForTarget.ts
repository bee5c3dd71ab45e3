import { RunNotPossible } from '../runNotPossible.js';

/** The target never answered HTTP: the run cannot happen (exit 2), which is not a failed check. */
export class TargetUnreachable extends RunNotPossible {
  override readonly name = 'TargetUnreachable';
}

const probeTimeoutMs = 5_000;
const pollEveryMs = 500;

/** Why a probe got no answer, in a few words: `ECONNREFUSED`, `ENOTFOUND`, `timed out`. */
function reasonOf(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${probeTimeoutMs / 1000} s`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/**
 * Probes `GET /readyz`. The target is there once it answers HTTP; it is ready once that answer is
 * not 502, 503 or 504 (a deployment without /readyz answers 404, which is ready enough). With
 * `waitSeconds` 0 one probe decides; otherwise it polls until ready or the deadline.
 */
export async function waitForTarget(
  baseUrl: string,
  waitSeconds: number,
  log: (line: string) => void = () => undefined,
): Promise<void> {
  const url = `${baseUrl}/readyz`;
  const deadline = Date.now() + waitSeconds * 1000;
  let last = '';
  for (let probe = 1; ; probe++) {
    try {
      const response = await fetch(url, {
        redirect: 'manual',
        signal: AbortSignal.timeout(
          waitSeconds === 0 ? probeTimeoutMs : Math.max(1_000, Math.min(probeTimeoutMs, deadline - Date.now())),
        ),
      });
      await response.body?.cancel();
      if (![502, 503, 504].includes(response.status)) {
        if (probe > 1) log(`target answered ${url} with ${response.status} after ${probe} probes`);
        return;
      }
      last = `HTTP ${response.status}`;
      if (waitSeconds === 0) {
        log(`target answered ${url} with ${response.status}; checking it anyway (--wait to wait for it)`);
        return;
      }
    } catch (error) {
      last = reasonOf(error);
      if (waitSeconds === 0)
        throw new TargetUnreachable(`cannot reach ${baseUrl} (${last}); --wait SECONDS to wait for it`);
    }
    if (Date.now() + pollEveryMs > deadline) {
      throw new TargetUnreachable(
        `${baseUrl} was not ready within ${waitSeconds} s (last probe of /readyz: ${last || 'no answer'})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pollEveryMs));
  }
}
