/** Latency figures of one measured workload. */
export interface Figures {
  label: string;
  count: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

type Task = (index: number) => Promise<void>;

/** Latencies of `count` runs of `task` with `concurrency` in flight, and the seconds they took together. */
async function sample(count: number, concurrency: number, task: Task): Promise<{ latencies: number[]; elapsedS: number }> {
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
  return { latencies, elapsedS: (performance.now() - started) / 1000 };
}

/** Figures of measured latencies, `elapsedS` being the seconds the whole sample took. */
export function figuresOf(label: string, latencies: number[], elapsedS: number): Figures {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { label, count: sorted.length, perSecond: sorted.length / elapsedS, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
}

/** Runs `task` `count` times with `concurrency` in flight; returns throughput and latency percentiles. */
export async function measure(label: string, count: number, concurrency: number, task: Task): Promise<Figures> {
  const { latencies, elapsedS } = await sample(count, concurrency, task);
  return figuresOf(label, latencies, elapsedS);
}

type Sample = { latencies: number[]; elapsedS: number };
type Side = 'baseline' | 'candidate';

/** `rounds` alternating rounds (baseline, candidate, baseline, …) of `countPerRound` runs each, every round's samples. */
async function sampleInTurns(tasks: Record<Side, Task>, countPerRound: number, concurrency: number, rounds: number): Promise<Record<Side, Sample>[]> {
  const samples: Record<Side, Sample>[] = [];
  for (let round = 0; round < rounds; round++) {
    const baseline = await sample(countPerRound, concurrency, tasks.baseline);
    samples.push({ baseline, candidate: await sample(countPerRound, concurrency, tasks.candidate) });
  }
  return samples;
}

/**
 * A baseline and a candidate measured in alternating rounds (`rounds` of each, `count` runs in all per side), their
 * samples merged: a machine whose load drifts (other processes on the same cores) weighs on both alike.
 */
export async function measureInTurns(labels: Record<Side, string>, tasks: Record<Side, Task>, count: number, concurrency: number, rounds = 5): Promise<Pair> {
  const samples = await sampleInTurns(tasks, Math.ceil(count / rounds), concurrency, rounds);
  const merged = (side: Side) =>
    figuresOf(
      labels[side],
      samples.flatMap((s) => s[side].latencies),
      samples.reduce((sum, s) => sum + s[side].elapsedS, 0),
    );
  return { baseline: merged('baseline'), candidate: merged('candidate') };
}

/** Like measureInTurns, but each round's figures on their own (`countPerRound` runs per side and round), in order. */
export async function measureRounds(
  labels: Record<Side, string>,
  tasks: Record<Side, Task>,
  countPerRound: number,
  concurrency: number,
  rounds: number,
): Promise<Pair[]> {
  const samples = await sampleInTurns(tasks, countPerRound, concurrency, rounds);
  return samples.map((s) => ({
    baseline: figuresOf(labels.baseline, s.baseline.latencies, s.baseline.elapsedS),
    candidate: figuresOf(labels.candidate, s.candidate.latencies, s.candidate.elapsedS),
  }));
}

/** The middle value (the mean of the two middle ones for an even count). */
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Each figure's median over rounds (throughput, p50 and p99 each on its own), with the rounds' runs counted together. */
export function medianOf(label: string, rounds: Figures[]): Figures {
  return {
    label,
    count: rounds.reduce((sum, r) => sum + r.count, 0),
    perSecond: median(rounds.map((r) => r.perSecond)),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
  };
}

export function formatFigures(figures: Figures): string {
  return `${figures.label.padEnd(48)} ${figures.perSecond.toFixed(0).padStart(7)}/s   p50 ${figures.p50Ms.toFixed(2).padStart(7)} ms   p99 ${figures.p99Ms.toFixed(2).padStart(7)} ms   (n=${figures.count})`;
}

/** A candidate and its baseline, measured in turn under the same load. */
export interface Pair {
  candidate: Figures;
  baseline: Figures;
}

/**
 * How many times the candidate costs the baseline: by throughput with requests in flight (`loaded`: the cores kept
 * busy), and by median latency one request at a time (`unloaded`: the latency a caller sees on an idle platform, the
 * usual meaning of p50), each against its target; the loaded p50 ratio is printed too, for reference (with the cores
 * saturated it follows the throughput ratio, by Little's law).
 */
export function formatRatio(name: string, pairs: { loaded: Pair; unloaded: Pair }, targets: { throughput: number; p50: number }): string {
  const { loaded, unloaded } = pairs;
  const byThroughput = loaded.baseline.perSecond / loaded.candidate.perSecond;
  const byLatency = unloaded.candidate.p50Ms / unloaded.baseline.p50Ms;
  const loadedLatency = loaded.candidate.p50Ms / loaded.baseline.p50Ms;
  const verdict = (ratio: number, target: number) => `${ratio.toFixed(2)}x (target ${target}x: ${ratio <= target ? 'met' : 'NOT met'})`;
  return `${name}: costs ${verdict(byThroughput, targets.throughput)} the baseline by throughput with requests in flight, ${verdict(byLatency, targets.p50)} by p50 latency one at a time (${loadedLatency.toFixed(2)}x by p50 with requests in flight)`;
}
