/** Latency figures of one measured workload. */
export interface Figures {
  label: string;
  count: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Runs `task` `count` times with `concurrency` in flight; returns throughput and latency percentiles. */
export async function measure(label: string, count: number, concurrency: number, task: (index: number) => Promise<void>): Promise<Figures> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const index = next++;
        const t0 = performance.now();
        await task(index);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { label, count, perSecond: count / elapsedS, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
}

export function formatFigures(figures: Figures): string {
  return `${figures.label.padEnd(48)} ${figures.perSecond.toFixed(0).padStart(7)}/s   p50 ${figures.p50Ms.toFixed(2).padStart(7)} ms   p99 ${figures.p99Ms.toFixed(2).padStart(7)} ms   (n=${figures.count})`;
}

/** How many times the candidate costs the baseline, by throughput and by median latency, each against its target. */
export function formatRatio(name: string, candidate: Figures, baseline: Figures, targets: { throughput: number; p50: number }): string {
  const byThroughput = baseline.perSecond / candidate.perSecond;
  const byLatency = candidate.p50Ms / baseline.p50Ms;
  const verdict = (ratio: number, target: number) => `${ratio.toFixed(2)}x (target ${target}x: ${ratio <= target ? 'met' : 'NOT met'})`;
  return `${name}: costs ${verdict(byThroughput, targets.throughput)} the baseline by throughput, ${verdict(byLatency, targets.p50)} by p50 latency`;
}
