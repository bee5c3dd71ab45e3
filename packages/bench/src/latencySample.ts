/** Latencies of individual calls, each timed from send to the last byte of its body. */
export interface LatencySample {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers other than 200 and 404 (a filter matching nothing is a valid answer). */
  failures: number;
}

export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] as number;
}

/** Sends each path once, `concurrency` at a time, and times each call. */
export async function sampleLatencies(
  origin: string,
  paths: readonly string[],
  headers: Record<string, string>,
  concurrency: number,
): Promise<LatencySample> {
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++] as string;
      const started = performance.now();
      try {
        const response = await fetch(`${origin}${path}`, { headers, signal: AbortSignal.timeout(60_000) });
        await response.arrayBuffer();
        if (response.status !== 200 && response.status !== 404) failures++;
      } catch {
        failures++;
      }
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  latencies.sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    count: latencies.length,
    p50Ms: round(percentile(latencies, 0.5)),
    p99Ms: round(percentile(latencies, 0.99)),
    maxMs: round(latencies[latencies.length - 1] ?? Number.NaN),
    failures,
  };
}
