import { describe, expect, it } from 'vitest';
import { failureSummary, runSections, type BenchSection } from '../../bench/sections';

describe('npm run bench, section by section', () => {
  it('reports a section that throws as FAILED with its reason, still runs the others, and ends with a failing exit code', async () => {
    const ran: string[] = [];
    const section = (key: string, run: () => Promise<string[]>): BenchSection => [key, `Section ${key}`, () => (ran.push(key), run())];
    const told: string[] = [];
    const outcomes = await runSections(
      [
        section('first', async () => ['first: 12 ms']),
        section('inbox', async () => {
          throw new Error('inbox/reply answered 429 RATE_LIMITED\n    at the stack');
        }),
        section('webhooks', async () => ['webhooks: 3 ms']),
      ],
      (outcome) => told.push(outcome.key),
    );
    expect(ran).toEqual(['first', 'inbox', 'webhooks']);
    expect(told).toEqual(['first', 'inbox', 'webhooks']);
    expect(outcomes.map(({ key, failed, lines }) => ({ key, failed, lines }))).toEqual([
      { key: 'first', failed: false, lines: ['first: 12 ms'] },
      { key: 'inbox', failed: true, lines: ['FAILED: Error: inbox/reply answered 429 RATE_LIMITED'] },
      { key: 'webhooks', failed: false, lines: ['webhooks: 3 ms'] },
    ]);
    expect(failureSummary(outcomes)).toEqual({ line: 'FAILED section(s): inbox', exitCode: 1 });
    expect(failureSummary(outcomes.filter((outcome) => !outcome.failed))).toEqual({ exitCode: 0 });
  });
});
