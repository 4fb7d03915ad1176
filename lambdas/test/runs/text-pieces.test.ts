import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StepLog } from '../../src/domains/runs/steps/step-log';
import { PIECE_EVERY_MS, storedTurnText, textPieceWriter, TEXT_MAX_CHARS } from '../../src/domains/runs/steps/text-deltas';

/** A step log that keeps the text pieces recorded in it. */
function pieceLog(afterSeq: number) {
  const pieces: { after_seq: number; index: number; text: string }[] = [];
  const log = { count: afterSeq, recordTextPiece: (piece) => void pieces.push(piece) } as Pick<StepLog, 'count' | 'recordTextPiece'> as StepLog;
  return { log, pieces };
}

/** Writes `text` in chunks of `size` characters, a piece's time passing after each chunk. */
function writeTurn(text: string, size: number) {
  const { log, pieces } = pieceLog(4);
  const writer = textPieceWriter(log);
  for (let start = 0; start < text.length; start += size) {
    writer.onTextDelta(text.slice(start, start + size));
    vi.advanceTimersByTime(PIECE_EVERY_MS);
  }
  writer.endTurn();
  return pieces;
}

describe('a turn’s text pieces', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  const secrets = ['sk_live_AbCdEfGhIjKlMnOp1234', 'Bearer abcdefgh.ijklmnop-123', 'eyJhbGciOi.eyJzdWIiOiIx.c2lnbmF0dXJl', 'ghp_abcdefghijklmnopqrstuvwx'];
  const text = `Here is what I found. Your key ${secrets[0]} works; send it as ${secrets[1]} with the token ${secrets[2]}; the repository token ${secrets[3]} too.\nDone.`;

  it('join up to a prefix of the stored text, numbered from 1 after the step the turn follows, whatever the chunk sizes, and never show a secret', () => {
    for (const size of [1, 2, 3, 5, 7, 11, 40]) {
      const pieces = writeTurn(text, size);
      expect(pieces.length).toBeGreaterThan(1);
      expect(pieces.map((piece) => [piece.after_seq, piece.index])).toEqual(pieces.map((_, position) => [4, position + 1]));
      const joined = pieces.map((piece) => piece.text).join('');
      expect(storedTurnText(text).startsWith(joined)).toBe(true);
      expect(joined).not.toMatch(/sk_live_|abcdefgh\.|eyJzdWIi|ghp_/);
    }
  });

  it('stop at the stored text’s length limit, the rest of a long turn told by its text step', () => {
    const long = 'word '.repeat(TEXT_MAX_CHARS / 2);
    const pieces = writeTurn(long, 1_000);
    const joined = pieces.map((piece) => piece.text).join('');
    expect(joined.length).toBe(TEXT_MAX_CHARS);
    expect(storedTurnText(long).startsWith(joined)).toBe(true);
    expect(storedTurnText(long).endsWith('… [truncated]')).toBe(true);
  });
});
