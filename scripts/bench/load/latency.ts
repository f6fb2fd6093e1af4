/** Latency figures in milliseconds (nearest-rank percentiles; zeros for an empty sample). */
export interface LatencySummary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function summarizeLatency(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);
  return { n: sorted.length, p50: round(rank(50)), p95: round(rank(95)), p99: round(rank(99)), max: round(sorted.at(-1) ?? 0) };
}

export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Times one async call in milliseconds, pushing the duration to `into` whether it resolves or throws. */
export async function timed<T>(into: number[], call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await call();
  } finally {
    into.push(performance.now() - started);
  }
}
