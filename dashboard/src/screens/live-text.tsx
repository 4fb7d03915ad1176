import { useEffect, useState } from 'preact/hooks';
import { followRunStream } from '../api/event-stream';

interface Piece {
  after_seq: number;
  text: string;
}

/**
 * What the agent of a running run is writing, as it writes it: the run stream's text pieces of the current model
 * turn join up; the turn's text step, when it comes, is the whole text.
 */
export function LiveText({ runId }: { runId: string }) {
  const [turn, setTurn] = useState({ afterSeq: -1, text: '' });
  useEffect(() => {
    const stop = new AbortController();
    void followRunStream(
      runId,
      (event) => {
        if (event.event === 'text_delta') {
          const piece = JSON.parse(event.data) as Piece;
          setTurn((current) =>
            current.afterSeq === piece.after_seq ? { ...current, text: current.text + piece.text } : { afterSeq: piece.after_seq, text: piece.text },
          );
        } else if (event.event === 'text') {
          const step = JSON.parse(event.data) as { seq: number; text: string };
          if (step.text) setTurn({ afterSeq: step.seq, text: step.text });
        }
      },
      stop.signal,
    );
    return () => stop.abort();
  }, [runId]);
  if (!turn.text) return null;
  return (
    <div class="live">
      <h2>Writing</h2>
      <p class="live-text" aria-live="polite">
        {turn.text}
      </p>
    </div>
  );
}
