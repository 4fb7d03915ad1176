/** One benchmark section: its key on the command line, its title, and what it prints. */
export type BenchSection = [key: string, title: string, run: () => Promise<string[]>];

export interface SectionOutcome {
  key: string;
  title: string;
  lines: string[];
  failed: boolean;
}

/** How a section's failure reads in its place: the first line of the error, so the reason fits on the section's line. */
const reasonOf = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).split('\n')[0]!;

/**
 * Runs the sections one after the other, each on its own: a section that throws (a 429 of the platform it drives, a
 * corpus missing) reports `FAILED` with its reason as its figures, and the next one still runs. `done` is told of
 * each as it ends, so a long run prints as it goes.
 */
export async function runSections(sections: BenchSection[], done: (outcome: SectionOutcome) => void = () => undefined): Promise<SectionOutcome[]> {
  const outcomes: SectionOutcome[] = [];
  for (const [key, title, run] of sections) {
    let outcome: SectionOutcome;
    try {
      outcome = { key, title, lines: await run(), failed: false };
    } catch (error) {
      outcome = { key, title, lines: [`FAILED: ${reasonOf(error)}`], failed: true };
    }
    outcomes.push(outcome);
    done(outcome);
  }
  return outcomes;
}

/** The summary line of the sections that failed (none: undefined) and the exit code the run ends with. */
export function failureSummary(outcomes: SectionOutcome[]): { line?: string; exitCode: number } {
  const failed = outcomes.filter((outcome) => outcome.failed);
  return failed.length === 0 ? { exitCode: 0 } : { line: `FAILED section(s): ${failed.map((outcome) => outcome.key).join(', ')}`, exitCode: 1 };
}
