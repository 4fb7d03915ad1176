import { useState } from 'preact/hooks';
import { post } from '../api/client';
import { ActionButton, Confirm, ErrorNote } from '../components';
import { useAction } from '../hooks';
import { downloadFile } from '../download';

/** An erasure as visitors/erase answers it. */
export type Erasure = Awaited<ReturnType<typeof post<'visitors/erase'>>>['erasure'];

/** The visitor of a conversation, named as visitors/* take them: the verified id when the host signed one. */
const visitorBody = (visitor: { id: string; verified_user_id: string | null }) =>
  visitor.verified_user_id ? { verified_user_id: visitor.verified_user_id } : { visitor_id: visitor.id };

/**
 * A conversation's visitor and their data (issue 29, item 6): download everything stored about them as JSON, or erase
 * it everywhere after a confirmation; `onErased` is told what the erasure removed.
 */
export function VisitorData({ visitor, onErased }: { visitor: { id: string; verified_user_id: string | null }; onErased: (erasure: Erasure) => void }) {
  const [confirming, setConfirming] = useState<true | null>(null);
  const exporting = useAction(async () =>
    downloadFile(
      `visitor-${visitor.verified_user_id ?? visitor.id}.json`,
      JSON.stringify(await post('visitors/export', visitorBody(visitor)), null, 2),
      'application/json',
    ),
  );
  const erasing = useAction(async () => onErased((await post('visitors/erase', visitorBody(visitor))).erasure));
  return (
    <section class="visitor-data" aria-label="Visitor's data">
      <div class="row">
        <ActionButton permission="visitors:manage" busy={exporting.busy} onClick={() => void exporting.run()}>
          Export visitor's data
        </ActionButton>
        <ActionButton permission="visitors:manage" variant="danger" busy={erasing.busy} onClick={() => setConfirming(true)}>
          Erase visitor's data
        </ActionButton>
      </div>
      <ErrorNote error={exporting.error ?? erasing.error} />
      <Confirm
        id="erase-visitor-title"
        subject={confirming}
        title="Erase this visitor's data?"
        body={() =>
          'Every conversation of this visitor, its messages, pending actions, the contacts the agent created from them and the webhook deliveries about them are erased for good. An audit record keeps who erased it and when, not who the visitor was.'
        }
        confirmLabel="Erase everything"
        onConfirm={() => void erasing.run()}
        onClose={() => setConfirming(null)}
      />
    </section>
  );
}

/** What an erasure removed, in a sentence. */
export const erasureSummary = (erasure: Erasure): string =>
  `Erased ${erasure.removed.conversations} conversation(s), ${erasure.removed.messages} message(s), ${erasure.removed.contacts} contact(s) and ${erasure.removed.webhook_deliveries} webhook delivery record(s).`;
