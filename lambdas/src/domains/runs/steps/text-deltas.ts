import { schemas } from '@service/shared';
import type { z } from 'zod';
import type { Deps } from '../../../infra/deps';
import { redactSecrets } from './redact';
import { queryTextPieceItems } from './repository';
import type { StepLog } from './step-log';

const PIECES_PAGE = 200;

/** How long the text of a turn gathers before it is stored as one piece: each piece is one store write. */
export const PIECE_EVERY_MS = 100;

/** A turn's text longer than this is stored cut, marked so. */
export const TEXT_MAX_CHARS = 16_000;
const TRUNCATED = '… [truncated]';

/** A turn's text as its text step stores it: secrets redacted, cut at TEXT_MAX_CHARS. */
export function storedTurnText(text: string): string {
  const redacted = redactSecrets(text) as string;
  return redacted.length > TEXT_MAX_CHARS ? `${redacted.slice(0, TEXT_MAX_CHARS)}${TRUNCATED}` : redacted;
}

/**
 * How much of a turn's text being written can be shown already: up to the word still being written, and never
 * between `Bearer` and its token. Every pattern redact.ts replaces lies within a word (or is `Bearer` and the word
 * after it), so the redacted pieces cut here join up to exactly the redaction of the whole text. `from`: a length
 * settled before (the search starts there, the text before it having been cut the same way).
 */
export function settledLength(text: string, from = 0): number {
  const tail = text.slice(from);
  let end = tail.length - (tail.match(/\S+$/)?.[0].length ?? 0);
  for (let before = tail.slice(0, end).match(/\bBearer\s+$/i); before; before = tail.slice(0, end).match(/\bBearer\s+$/i)) end = before.index!;
  return from + end;
}

/**
 * Stores the text of a run's turns as the model writes it: the redacted settled text gathered over PIECE_EVERY_MS
 * becomes one text piece, numbered after the step the turn follows. The last of a turn's text is never stored as a
 * piece: the stream tells it from the turn's text step (run-watch.ts), so a quick turn costs no write at all.
 */
export function textPieceWriter(log: StepLog) {
  let turn: { afterSeq: number; text: string; shown: number; shownChars: number; index: number } | undefined;
  let timer: NodeJS.Timeout | undefined;
  const store = () => {
    timer = undefined;
    // The last index is kept for the turn's rest, which the stream tells from the text step.
    if (!turn || turn.index >= schemas.TEXT_DELTAS_PER_TURN_MAX - 1 || turn.shownChars >= TEXT_MAX_CHARS) return;
    const end = settledLength(turn.text, turn.shown);
    const piece = (redactSecrets(turn.text.slice(turn.shown, end)) as string).slice(0, TEXT_MAX_CHARS - turn.shownChars);
    if (!piece) return;
    turn.shown = end;
    turn.shownChars += piece.length;
    log.recordTextPiece({ after_seq: turn.afterSeq, index: (turn.index += 1), text: piece });
  };
  return {
    onTextDelta(text: string) {
      turn ??= { afterSeq: log.count, text: '', shown: 0, shownChars: 0, index: 0 };
      turn.text += text;
      timer ??= setTimeout(store, PIECE_EVERY_MS);
    },
    /** The turn ended (its text step is recorded next): nothing more of it is stored as a piece. */
    endTurn() {
      clearTimeout(timer);
      timer = undefined;
      turn = undefined;
    },
  };
}

/** The text pieces a run stored after stream position `after`, in order (all of them: a finished run's too). */
export async function readTextPieces(deps: Deps, runId: string, after: number): Promise<z.infer<typeof schemas.TextDelta>[]> {
  const pieces: z.infer<typeof schemas.TextDelta>[] = [];
  for (let position = after, more = true; more;) {
    const page = await queryTextPieceItems(deps, runId, position, PIECES_PAGE);
    pieces.push(...page.items.map((item) => JSON.parse(item.step) as z.infer<typeof schemas.TextDelta>));
    position = page.items.at(-1)?.seq ?? position;
    more = page.more;
  }
  return pieces;
}
