import { wrapLanguageModel } from 'ai';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { EventSourceMessage } from 'eventsource-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { createOfflineModel } from '@service/offline-model';
import { usePlatform } from '../support/platform';
import { openEventStream } from '../support/sse';
import { command, waitForRun } from '../support/runs';

/**
 * The offline model at a hosted model's pace, held in the middle of its first streamed turn until the test lets it
 * go on: "mid-turn" is a state the test holds, never a timing.
 */
const HOLD_AT_DELTA = 20;
const hold = { release: undefined as (() => void) | undefined, reached: false };
const released = new Promise<void>((resolve) => (hold.release = resolve));
let streamedCalls = 0;
const model = wrapLanguageModel({
  model: createOfflineModel({ deltaPauseMs: 15 }),
  middleware: {
    specificationVersion: 'v3',
    wrapStream: async ({ doStream }) => {
      const result = await doStream();
      if ((streamedCalls += 1) > 1) return result;
      let deltas = 0;
      const holding = new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
        async transform(part, controller) {
          if (part.type === 'text-delta' && (deltas += 1) === HOLD_AT_DELTA) {
            hold.reached = true;
            await released;
          }
          controller.enqueue(part);
        },
      });
      return { ...result, stream: result.stream.pipeThrough(holding) };
    },
  },
});

const openStream = (url: string, headers: Record<string, string>) => openEventStream(url, headers, 20_000);

type Piece = { after_seq: number; index: number; text: string };
const pieces = (events: EventSourceMessage[]) => events.filter((event) => event.event === 'text_delta');

describe('the text of a run as the model writes it', () => {
  const ctx = usePlatform({ model, env: { RATE_LIMIT_PER_MINUTE: '1000' } });
  const streamUrl = (runId: string) => `${ctx.platform.apiBaseUrl}/agents/command_stream?run_id=${runId}`;
  const auth = () => ({ 'x-service-api-key': ctx.key });
  // A failed test must not leave the run held (the platform waits for it to stop).
  afterAll(() => hold.release!());

  it('streams text_delta pieces mid-turn; a client that drops and resumes with Last-Event-ID gets the rest, no gap, no duplicate; the pieces join to the stored text', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Hello there, what can you do?', autonomy: 'full' });
    const first = openStream(streamUrl(runId), auth());
    // Pieces arrive while the model is still writing its turn (held mid-turn): the text is not sent a turn at a time.
    await first.waitFor(() => hold.reached && pieces(first.events).length >= 2);
    expect(first.events.some((event) => event.event === 'text')).toBe(false);
    first.drop();
    const lastSeen = first.events.at(-1)!;
    expect(lastSeen.event).toBe('text_delta');
    expect(lastSeen.id).toMatch(/^\d+\.\d+$/);

    // Reconnected while the turn is still held, then the model goes on: the rest comes live.
    const resumed = openStream(streamUrl(runId), { ...auth(), 'last-event-id': lastSeen.id! });
    hold.release!();
    await resumed.finished;
    expect(resumed.events.at(-1)!.event).toBe('run');
    const { after_seq, index } = JSON.parse(lastSeen.data) as Piece;
    const next = JSON.parse(resumed.events[0]!.data) as Piece;
    expect(resumed.events[0]!.event).toBe('text_delta');
    expect(next).toMatchObject({ after_seq, index: index + 1 });

    // Read again from the start once the run has finished: the same events, the same ids, the same order.
    const whole = openStream(streamUrl(runId), auth());
    await whole.finished;
    const joined = [...first.events, ...resumed.events];
    expect(joined.map((event) => [event.id, event.event, event.data])).toEqual(whole.events.map((event) => [event.id, event.event, event.data]));

    const status = await ctx.api<{ steps: { seq: number; type: string; text?: string }[] }>('agents/command_status/', { query: { run_id: runId } });
    const textStep = status.body.data.steps.find((step) => step.type === 'text' && step.text)!;
    const turnPieces = pieces(whole.events)
      .map((event) => JSON.parse(event.data) as Piece)
      .filter((piece) => piece.after_seq === textStep.seq - 1);
    expect(turnPieces.map((piece) => piece.index)).toEqual(turnPieces.map((_, position) => position + 1));
    expect(turnPieces.length).toBeGreaterThanOrEqual(3);
    expect(turnPieces.map((piece) => piece.text).join('')).toBe(textStep.text);
    // Each piece comes before its turn's text step, and command_status lists no pieces.
    const textEvent = whole.events.findIndex((event) => event.event === 'text' && JSON.parse(event.data).seq === textStep.seq);
    expect(whole.events.slice(0, textEvent).filter((event) => event.event === 'text_delta').length).toBeGreaterThanOrEqual(turnPieces.length);
    expect(status.body.data.steps.map((step) => step.seq)).toEqual(status.body.data.steps.map((_, position) => position));
  });

  it('refuses a Last-Event-ID that is no event id with 400 VALIDATION_ERROR', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Hello', autonomy: 'full' });
    for (const bad of ['1.', '1.2.3', '1.99999', '-1']) {
      const answer = await fetch(streamUrl(runId), { headers: { ...auth(), 'last-event-id': bad } });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', field: 'last_event_id' } });
    }
    await waitForRun(ctx.api, runId);
  });
});
