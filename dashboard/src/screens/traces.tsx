import { useState } from 'preact/hooks';
import { get, post } from '../api/client';
import { ActionButton, ActionForm, ErrorNote, Loading, RoleNote, Screen } from '../components';
import { useAction, useLoad } from '../hooks';
import { when } from '../format';

const number = new Intl.NumberFormat();

/** `name: value` lines into headers; a line without a colon is an error the person sees before anything is sent. */
function parseHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text
    .split('\n')
    .map((each) => each.trim())
    .filter(Boolean)) {
    const colon = line.indexOf(':');
    if (colon < 1) throw new Error(`"${line.slice(0, 40)}" is not a header: write it as name: value`);
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * Where the workspace's traces go: an OTLP/HTTP endpoint, the headers its vendor needs (write-only: only their names
 * come back), whether message contents are recorded, and what was delivered and dropped.
 */
export default function Traces() {
  const current = useLoad(() => get('telemetry/settings_get'), []);
  const settings = current.data?.settings;
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [headersText, setHeadersText] = useState('');
  const [removeHeaders, setRemoveHeaders] = useState(false);
  const [includeContent, setIncludeContent] = useState<boolean | null>(null);
  const [notice, setNotice] = useState('');
  const save = useAction(async () => {
    const headers = removeHeaders ? {} : headersText.trim() ? parseHeaders(headersText) : undefined;
    const saved = await post('telemetry/settings_update', {
      otlp_endpoint: (endpoint ?? settings?.otlp_endpoint ?? '').trim(),
      ...(headers ? { headers } : {}),
      include_content: includeContent ?? settings?.include_content ?? false,
    });
    setHeadersText('');
    setRemoveHeaders(false);
    setNotice(`Traces go to ${saved.settings.otlp_endpoint ?? ''}.`);
    current.reload();
  });
  const turnOff = useAction(async () => {
    await post('telemetry/settings_update', { otlp_endpoint: null });
    setEndpoint(null);
    setNotice('Tracing is off.');
    current.reload();
  });
  return (
    <Screen
      title="Traces"
      trail="Developers"
      intro="OpenTelemetry spans of every run and widget reply (GenAI semantic conventions: invoke_agent, chat, execute_tool, token usage), sent to your collector or observability vendor over OTLP/HTTP."
    >
      <RoleNote permission="manage" action="changing where traces go" />
      {current.loading && !settings ? <Loading what="trace settings" /> : null}
      <ErrorNote error={current.error} />
      {notice ? (
        <p class="note" role="status">
          {notice}
        </p>
      ) : null}
      {settings ? (
        <>
          <ActionForm class="panel" onSubmit={save.run}>
            <h2>Export</h2>
            <label for="otlp-endpoint">OTLP/HTTP traces endpoint</label>
            <input
              id="otlp-endpoint"
              type="url"
              required
              placeholder="https://collector.example.com/v1/traces"
              value={endpoint ?? settings.otlp_endpoint ?? ''}
              onInput={(event) => setEndpoint(event.currentTarget.value)}
            />
            <label for="otlp-headers">Headers, one per line as name: value</label>
            <p class="small" id="otlp-headers-help">
              {settings.header_names.length
                ? `Set: ${settings.header_names.join(', ')}. Their values are never shown; lines written here replace them.`
                : "For your vendor's key. Values are never shown again."}
            </p>
            <textarea
              id="otlp-headers"
              aria-describedby="otlp-headers-help"
              rows={3}
              class="mono"
              value={headersText}
              onInput={(event) => setHeadersText(event.currentTarget.value)}
            />
            {settings.header_names.length ? (
              <label class="check">
                <input type="checkbox" checked={removeHeaders} onChange={(event) => setRemoveHeaders(event.currentTarget.checked)} />
                Remove the headers
              </label>
            ) : null}
            <label class="check">
              <input
                type="checkbox"
                checked={includeContent ?? settings.include_content}
                onChange={(event) => setIncludeContent(event.currentTarget.checked)}
              />
              Record message contents, answers and tool arguments on the spans
            </label>
            <span class="row">
              <ActionButton type="submit" permission="manage" variant="primary" busy={save.busy}>
                Save
              </ActionButton>
              {settings.otlp_endpoint ? (
                <ActionButton permission="manage" busy={turnOff.busy} onClick={() => void turnOff.run()}>
                  Turn tracing off
                </ActionButton>
              ) : null}
            </span>
            <ErrorNote error={save.error ?? turnOff.error} />
          </ActionForm>
          <section class="panel" aria-labelledby="delivery-title">
            <h2 id="delivery-title">Delivery</h2>
            {settings.otlp_endpoint ? (
              <p>
                {number.format(settings.spans.exported)} spans delivered, {number.format(settings.spans.dropped)} dropped since this endpoint was set.
                {settings.spans.last_error ? ` Last error ${when(settings.spans.last_error_at)}: ${settings.spans.last_error}` : ''}
              </p>
            ) : (
              <p>Tracing is off: nothing is recorded.</p>
            )}
          </section>
        </>
      ) : null}
    </Screen>
  );
}
