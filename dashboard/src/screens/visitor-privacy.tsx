import { useState } from 'preact/hooks';
import { RETENTION_DAYS } from '@service/shared/retention';
import { get, post } from '../api/client';
import { ActionForm, DataTable, ErrorNote, Loading, SaveRow } from '../components';
import { when } from '../format';
import { useAction, useLoad } from '../hooks';
import { useApp } from '../session';

const KEEP = 'keep';

/**
 * How long the workspace keeps visitors' conversations (visitors/retention_set: 30, 90, 365 days after their last
 * activity, or kept), and the audit list of erasures (visitors/audit_list): who, when, which visitor (hashed), what.
 */
/** `reloadKey`: the audit list is read again when it changes (an erasure made on this screen). */
export function VisitorPrivacy({ reloadKey }: { reloadKey: string }) {
  const app = useApp();
  const retention = useLoad(() => get('visitors/retention_get'), []);
  const audit = useLoad(() => get('visitors/audit_list', { limit: 20 }), [reloadKey]);
  const [choice, setChoice] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const current = choice ?? String(retention.data?.retention.days ?? KEEP);
  const save = useAction(async () => {
    await post('visitors/retention_set', { days: current === KEEP ? null : (Number(current) as (typeof RETENTION_DAYS)[number]) });
    setSaved(true);
    audit.reload();
  });
  return (
    <section aria-labelledby="visitor-privacy">
      <h2 id="visitor-privacy">Visitors' data</h2>
      <ErrorNote error={retention.error ?? audit.error} />
      <ActionForm onSubmit={() => save.run()}>
        <label>
          Keep conversations
          <select value={current} disabled={!app.may('visitors:manage')} onChange={(event) => (setChoice(event.currentTarget.value), setSaved(false))}>
            <option value={KEEP}>until erased</option>
            {RETENTION_DAYS.map((days) => (
              <option key={days} value={String(days)}>
                {days} days after their last activity
              </option>
            ))}
          </select>
        </label>
        <SaveRow permission="visitors:manage" busy={save.busy} saved={saved} error={save.error} />
      </ActionForm>
      {audit.loading && !audit.data ? <Loading what="the erasures" /> : null}
      <DataTable
        caption="Erasures"
        columns={['When', 'Why', 'By', 'Visitor (hash)', 'Removed']}
        empty={audit.data?.erasures.length === 0 && 'Nothing erased yet.'}
      >
        {(audit.data?.erasures ?? []).map((erasure) => (
          <tr key={erasure.id}>
            <td>{when(erasure.started_at)}</td>
            <td>{erasure.reason === 'retention' ? 'Retention' : 'Request'}</td>
            <td>{erasure.requested_by.name ?? erasure.requested_by.kind}</td>
            <td>{erasure.visitor_hash ? `${erasure.visitor_hash.slice(0, 12)}…` : 'several'}</td>
            <td>
              {erasure.state === 'completed' ? '' : 'in progress · '}
              {erasure.removed.conversations} conversation(s), {erasure.removed.messages} message(s)
            </td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
