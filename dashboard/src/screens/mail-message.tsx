import { useMemo, useState } from 'preact/hooks';
import { apiHeaders, apiUrl, ApiError, post } from '../api/client';
import { ActionButton, ErrorNote } from '../components';
import { useAction } from '../hooks';
import type { MailOfMessage } from './live-conversation';

const UNVERIFIED: Record<NonNullable<MailOfMessage['unverified']>, string> = {
  dmarc_failed: "it fails DMARC for the sender's domain: the From: address may be forged",
  no_dmarc_pass: "the sender's domain has no DMARC pass: the From: address is not proven",
  not_the_customer: "it is not from this conversation's customer",
};

const HELD: Record<NonNullable<MailOfMessage['held']>['reason'], string> = {
  not_the_customer: "someone other than this conversation's customer wrote to its address",
  dmarc_failed: "it fails DMARC for the sender's domain (the From: may be forged)",
};

const sizeFormat = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
export const bytesText = (bytes: number): string =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${sizeFormat.format(bytes / 1024)} KB` : `${sizeFormat.format(bytes / 1024 / 1024)} MB`;

/**
 * An inbound mail as it was sent, under its transcript entry: the verdicts (unverified, and why), a held mail's
 * reason, the HTML in a sandboxed frame (no script, no remote content, no same origin: the server sanitized it, the
 * frame is the second wall) with the quoted history folded, and the attachments to download as files.
 */
export function MailMessage({ mail, conversationId, onDecided }: { mail: MailOfMessage; conversationId: string; onDecided: () => void }) {
  return (
    <div class="mail">
      <p class="small verdicts">
        {mail.unverified ? <span class="badge unverified">Unverified</span> : <span class="badge verified">Verified</span>} SPF {mail.verdicts.spf} · DKIM{' '}
        {mail.verdicts.dkim} · DMARC {mail.verdicts.dmarc}
        {mail.unverified ? <span class="muted"> · {UNVERIFIED[mail.unverified]}</span> : null}
      </p>
      {mail.held ? <Held mail={mail} reason={mail.held.reason} conversationId={conversationId} onDecided={onDecided} /> : null}
      <AsSent mail={mail} />
      {mail.attachments.length ? <Attachments mail={mail} conversationId={conversationId} /> : null}
    </div>
  );
}

/** Why the mail was held, and the teammate's decision: accept it (into this conversation, or one of its own) or dismiss it. */
function Held({ mail, reason, conversationId, onDecided }: { mail: MailOfMessage; reason: keyof typeof HELD; conversationId: string; onDecided: () => void }) {
  const act = useAction(async (into: 'conversation' | 'new' | 'dismiss') => {
    const target = { conversation_id: conversationId, mail_id: mail.mail_id };
    await (into === 'dismiss' ? post('conversations/mail_dismiss', target) : post('conversations/mail_accept', { ...target, into }));
    onDecided();
  });
  return (
    <div class="held" role="note">
      <p>
        {mail.decided === 'accepted' ? 'Accepted by a teammate' : mail.decided === 'dismissed' ? 'Dismissed by a teammate' : 'Held for a teammate'}:{' '}
        {HELD[reason]}.{mail.decided === 'accepted' ? '' : ' The agent and the customer have not seen it.'}
      </p>
      {mail.decided ? null : (
        <div class="row">
          <ActionButton permission="conversations:reply" busy={act.busy} onClick={() => void act.run('conversation')}>
            Accept into this conversation
          </ActionButton>
          <ActionButton permission="conversations:reply" busy={act.busy} onClick={() => void act.run('new')}>
            Accept as a new conversation
          </ActionButton>
          <ActionButton permission="conversations:reply" variant="danger" busy={act.busy} onClick={() => void act.run('dismiss')}>
            Dismiss
          </ActionButton>
        </div>
      )}
      <ErrorNote error={act.error} />
    </div>
  );
}

/** The HTML (or the text) as sent, its quoted history behind a toggle. */
function AsSent({ mail }: { mail: MailOfMessage }) {
  const [quotedShown, setQuotedShown] = useState(false);
  const parts = useMemo(() => (mail.html ? splitQuoted(mail.html) : undefined), [mail.html]);
  const quoted = parts ? parts.quoted : mail.full_text.trim() ? mail.full_text : undefined;
  return (
    <>
      {parts ? (
        <iframe
          class="mail-html"
          title={`The mail as sent: ${mail.subject || '(no subject)'}`}
          sandbox=""
          referrerpolicy="no-referrer"
          srcdoc={framed(parts.main)}
        />
      ) : null}
      {quoted ? (
        <>
          <button type="button" class="quiet small" aria-expanded={quotedShown} onClick={() => setQuotedShown(!quotedShown)}>
            {quotedShown ? 'Hide the quoted history' : parts ? 'Show the quoted history' : 'Show the whole mail as sent'}
          </button>
          {quotedShown ? (
            parts ? (
              <iframe class="mail-html" title="The quoted history" sandbox="" referrerpolicy="no-referrer" srcdoc={framed(quoted)} />
            ) : (
              <pre class="mail-text">{quoted}</pre>
            )
          ) : null}
        </>
      ) : null}
    </>
  );
}

/**
 * The sanitized HTML split into what the customer wrote now and the history it quotes (its outermost blockquotes), read
 * by the browser's parser into an inert document (DOMParser runs nothing).
 */
function splitQuoted(html: string): { main: string; quoted: string | undefined } {
  const document = new DOMParser().parseFromString(html, 'text/html');
  const quotes = [...document.body.querySelectorAll('blockquote')].filter((quote) => !quote.parentElement?.closest('blockquote'));
  if (!quotes.length) return { main: html, quoted: undefined };
  const quoted = quotes.map((quote) => quote.outerHTML).join('');
  for (const quote of quotes) quote.remove();
  return { main: document.body.innerHTML, quoted };
}

/** A frame's document: nothing may load (no image, font or style from anywhere), whatever the markup holds. */
const framed = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head><body>${body}</body></html>`;

function Attachments({ mail, conversationId }: { mail: MailOfMessage; conversationId: string }) {
  const [error, setError] = useState<unknown>();
  return (
    <>
      <ul class="attachments" aria-label="Attachments">
        {mail.attachments.map((attachment) => (
          <li key={attachment.index}>
            <span class="filename">{attachment.filename}</span>{' '}
            <span class="muted small">
              {attachment.type} · {bytesText(attachment.bytes)}
            </span>{' '}
            {attachment.refused ? (
              <span class="muted small">· not kept ({attachment.refused === 'too_large' ? 'over the size cap' : 'past the count cap'})</span>
            ) : (
              <button
                type="button"
                class="quiet small"
                aria-label={`Download ${attachment.filename}`}
                onClick={() => void download(conversationId, mail, attachment).catch(setError)}
              >
                Download
              </button>
            )}
          </li>
        ))}
      </ul>
      <ErrorNote error={error} />
    </>
  );
}

/** Saves the attachment through the browser's download: fetched with the session and the workspace, never opened. */
async function download(conversationId: string, mail: MailOfMessage, attachment: MailOfMessage['attachments'][number]): Promise<void> {
  const response = await fetch(apiUrl('conversations/attachment', { conversation_id: conversationId, mail_id: mail.mail_id, index: attachment.index }), {
    headers: apiHeaders('*/*'),
    credentials: 'same-origin',
  });
  if (!response.ok) {
    const envelope = (await response.json().catch(() => undefined)) as { msg?: string; error?: { code: string } } | undefined;
    throw new ApiError(response.status, envelope?.error?.code ?? 'HTTP_ERROR', envelope?.msg ?? `${response.status} ${response.statusText}`);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = attachment.filename;
  link.click();
  URL.revokeObjectURL(url);
}
