import { checkOutputSchema, type Expectation, type RunSource } from '@service/shared';
import { leftUnanswered } from '../knowledge/unanswered';
import { zodFromOutputSchema } from '../runs/runtime/output-shape';
import type { PlayedTurn } from './doors';
import { HANDOFF_CALL, type RecordedCall } from './sandbox';

export type Outcome = { outcome: 'passed' } | { outcome: 'failed' | 'not_graded'; reason: string };

/** What a turn produced, as the expectations see it. */
export interface TurnFacts {
  played: PlayedTurn;
  calls: RecordedCall[];
}

const contains = (text: string, part: string) => text.toLowerCase().includes(part.toLowerCase());
const pass: Outcome = { outcome: 'passed' };
const fail = (reason: string): Outcome => ({ outcome: 'failed', reason });
const names = (calls: RecordedCall[]) => (calls.length ? calls.map((call) => call.name).join(', ') : 'none');

/** A call is the named tool by its model-facing name (`email__send`) or its capability (`email.send`). */
const isTool = (call: RecordedCall, tool: string) => call.name === tool || call.capability === tool;

/** An expected argument matches: a string is contained (any case), anything else is equal (as JSON). */
function argumentMatches(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'string') return typeof actual === 'string' && contains(actual, expected);
  return JSON.stringify(actual) === JSON.stringify(expected);
}

function toolCalled(calls: RecordedCall[], tool: string, args: Record<string, unknown> | undefined): Outcome {
  const named = calls.filter((call) => isTool(call, tool));
  if (!named.length) return fail(`${tool} was not called (tools called: ${names(calls)})`);
  if (!args) return pass;
  const matching = named.find((call) => Object.entries(args).every(([key, value]) => argumentMatches(call.args[key], value)));
  return matching ? pass : fail(`${tool} was called with ${JSON.stringify(named[0]!.args)}, not matching ${JSON.stringify(args)}`);
}

const cited = (sources: RunSource[], wanted: string) =>
  sources.some((source) => [source.url ?? '', source.title, source.name].some((field) => field && contains(field, wanted)));

function outputMatches(played: PlayedTurn, schema: Record<string, unknown>): Outcome {
  if (!played.output) return fail('output_schema applies to the command door only');
  if (played.output.error) return fail(played.output.error);
  const check = checkOutputSchema(schema);
  if (!check.ok) return fail(`the output schema is invalid at ${check.path}: ${check.message}`);
  const parsed = zodFromOutputSchema(check.schema).safeParse(played.output.value);
  return parsed.success ? pass : fail(`the output does not match the schema: ${parsed.error.issues[0]?.message ?? 'mismatch'}`);
}

/** Checks one expectation that needs no model against what the turn produced; a `judge` is graded elsewhere (judge.ts). */
export function checkExpectation(expectation: Exclude<Expectation, { judge: string }>, { played, calls }: TurnFacts): Outcome {
  const answer = played.answer;
  if ('tool_called' in expectation) return toolCalled(calls, expectation.tool_called, expectation.args);
  if ('tool_not_called' in expectation)
    return calls.some((call) => isTool(call, expectation.tool_not_called)) ? fail(`${expectation.tool_not_called} was called`) : pass;
  if ('no_action' in expectation) {
    const acts = calls.filter((call) => call.effect === 'act');
    return acts.length ? fail(`the agent acted: ${names(acts)}`) : pass;
  }
  if ('answer_contains' in expectation)
    return contains(answer, expectation.answer_contains) ? pass : fail(`the answer does not contain "${expectation.answer_contains}"`);
  if ('answer_excludes' in expectation)
    return contains(answer, expectation.answer_excludes) ? fail(`the answer contains "${expectation.answer_excludes}"`) : pass;
  if ('cites' in expectation) {
    return cited(played.sources, expectation.cites)
      ? pass
      : fail(`no passage of "${expectation.cites}" (cited: ${played.sources.map((source) => source.url ?? source.title).join(', ') || 'none'})`);
  }
  if ('says_unknown' in expectation) {
    const searched = calls.some((call) => call.capability === 'knowledge.search');
    return leftUnanswered({ searched, passages: played.sources.length, answer }) ? pass : fail('the agent did not say it does not know');
  }
  if ('hands_off' in expectation) return calls.some((call) => call.name === HANDOFF_CALL) ? pass : fail('the agent did not hand the conversation to people');
  return outputMatches(played, expectation.output_schema);
}
