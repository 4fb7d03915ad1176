import { useState } from 'preact/hooks';
import { get, post } from '../api/client';
import { ActionButton, ActionForm, Confirm, DataTable, ErrorNote, Loading, RoleNote, Screen, SecretOnce } from '../components';
import { useAction, useLoad } from '../hooks';
import { when } from '../format';

const EVENTS = ['agent.command.completed', 'agent.command.failed'] as const;
type EventType = (typeof EVENTS)[number];

export default function Webhooks() {
  const list = useLoad(() => get('webhooks/list'), []);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<EventType[]>([...EVENTS]);
  const [secrets, setSecrets] = useState<{ signing: string; standard: string } | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const create = useAction(async () => {
    const created = await post('webhooks/create', { url: url.trim(), events });
    setSecrets(
      created.signing_secret && created.standard_webhooks_secret ? { signing: created.signing_secret, standard: created.standard_webhooks_secret } : null,
    );
    setUrl('');
    list.reload();
  });
  const remove = useAction(async (id: string) => {
    await post('webhooks/delete', { webhook_id: id });
    if (selected === id) setSelected(null);
    list.reload();
  });
  return (
    <Screen title="Webhooks" trail="Developers" intro="Signed HTTPS callbacks when a command completes or fails.">
      <RoleNote permission="manage" action="adding, testing or redelivering" />
      {secrets ? (
        <SecretOnce
          title="Signing secret"
          value={secrets.signing}
          also={{ label: 'The same key for Standard Webhooks verifiers (webhook-signature header):', value: secrets.standard }}
          onDone={() => setSecrets(null)}
        />
      ) : null}
      <ActionForm class="panel" onSubmit={create.run}>
        <h2>Add an endpoint</h2>
        <label for="webhook-url">Endpoint URL</label>
        <input
          id="webhook-url"
          type="url"
          required
          placeholder="https://example.com/webhooks"
          value={url}
          onInput={(event) => setUrl(event.currentTarget.value)}
        />
        <fieldset class="checks">
          <legend>Events</legend>
          {EVENTS.map((name) => (
            <label key={name} class="check">
              <input
                type="checkbox"
                checked={events.includes(name)}
                onChange={(event) => setEvents(event.currentTarget.checked ? [...events, name] : events.filter((other) => other !== name))}
              />
              {name}
            </label>
          ))}
        </fieldset>
        <ActionButton type="submit" permission="manage" variant="primary" busy={create.busy}>
          Add endpoint
        </ActionButton>
        <ErrorNote error={create.error ?? remove.error} />
      </ActionForm>
      {list.loading && !list.data ? <Loading what="webhooks" /> : null}
      <ErrorNote error={list.error} />
      <DataTable
        caption="Webhook subscriptions"
        columns={['URL', 'Active', 'Failures', 'Disabled at', '']}
        empty={list.data?.subscriptions.length === 0 && 'No endpoints yet.'}
      >
        {list.data?.subscriptions.map((subscription) => (
          <tr key={subscription.id}>
            <td class="mono break">{subscription.url}</td>
            <td>{subscription.active ? 'Active' : 'Disabled'}</td>
            <td>{subscription.failure_count}</td>
            <td>{when(subscription.disabled_at)}</td>
            <td class="row">
              <button
                type="button"
                class="quiet"
                aria-pressed={selected === subscription.id}
                onClick={() => setSelected(selected === subscription.id ? null : subscription.id)}
              >
                Delivery log
              </button>
              <ActionButton permission="manage" variant="danger" label={`Delete ${subscription.url}`} onClick={() => setDeleting(subscription.id)}>
                Delete
              </ActionButton>
            </td>
          </tr>
        ))}
      </DataTable>
      {selected ? <Deliveries webhookId={selected} /> : null}
      <Confirm
        subject={deleting}
        title="Delete this endpoint?"
        body={() => 'No more events are sent to it.'}
        confirmLabel="Delete endpoint"
        onClose={() => setDeleting(null)}
        onConfirm={(id) => void remove.run(id)}
      />
    </Screen>
  );
}

function Deliveries({ webhookId }: { webhookId: string }) {
  const log = useLoad(() => get('webhooks/deliveries', { webhook_id: webhookId, limit: 50 }), [webhookId]);
  const [notice, setNotice] = useState('');
  const test = useAction(async () => {
    await post('webhooks/test', { webhook_id: webhookId });
    setNotice('Test event queued.');
    log.reload();
  });
  const redeliver = useAction(async (eventId: string) => {
    await post('webhooks/redeliver', { webhook_id: webhookId, event_id: eventId });
    setNotice(`Event ${eventId} queued again.`);
    log.reload();
  });
  return (
    <section class="panel" aria-labelledby="deliveries-title">
      <div class="row spread">
        <h2 id="deliveries-title">Delivery log</h2>
        <span class="row">
          <button type="button" class="quiet" onClick={log.reload}>
            Refresh
          </button>
          <ActionButton permission="manage" busy={test.busy} onClick={() => void test.run()}>
            Send test event
          </ActionButton>
        </span>
      </div>
      {notice ? (
        <p class="note" role="status">
          {notice}
        </p>
      ) : null}
      <ErrorNote error={log.error ?? test.error ?? redeliver.error} />
      <DataTable
        caption="Delivery attempts"
        columns={['Time', 'Event', 'Status', 'Duration', 'Error', 'Body', '']}
        empty={log.data?.attempts.length === 0 && 'Nothing delivered yet.'}
      >
        {log.data?.attempts.map((attempt) => (
          <tr key={`${attempt.event_id}:${attempt.attempt}:${attempt.attempted_at}`}>
            <td>{when(attempt.attempted_at)}</td>
            <td>
              {attempt.event}
              <br />
              <span class="mono small">{attempt.event_id}</span>
            </td>
            <td>
              <span class={`badge ${attempt.success ? 'completed' : 'failed'}`}>{attempt.http_status ?? 'no response'}</span>
            </td>
            <td>{attempt.duration_ms} ms</td>
            <td>{attempt.error ?? ''}</td>
            <td>
              {attempt.body === null ? null : (
                <details>
                  <summary>Body</summary>
                  <pre class="code">{attempt.body}</pre>
                </details>
              )}
            </td>
            <td>
              <ActionButton permission="manage" label={`Redeliver ${attempt.event_id}`} onClick={() => void redeliver.run(attempt.event_id)}>
                Redeliver
              </ActionButton>
            </td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
