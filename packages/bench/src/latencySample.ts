/** Latencies of individual calls, each timed from send to the last byte of its body. */
export interface LatencySample {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers other than 200 and 404 (a filter matching nothing is a valid answer). */
  failures: number;
}

export function percentile(sorted: ArrayLike<number>, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] as number;
}

/**
 * Milliseconds kept to the microsecond: many calls answer in under one, which a whole millisecond
 * (autocannon's own histogram) reads as 0.
 */
export const toMicrosecond = (ms: number) => Math.round(ms * 1000) / 1000;

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
  return {
    count: latencies.length,
    p50Ms: toMicrosecond(percentile(latencies, 0.5)),
    p99Ms: toMicrosecond(percentile(latencies, 0.99)),
    maxMs: toMicrosecond(latencies[latencies.length - 1] ?? Number.NaN),
    failures,
  };
}
