import { h } from 'preact';
import type { VNode } from 'preact';
import { useSignal } from '@preact/signals';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import { renderIcon } from '../core/icons';
import type { ChatMessage, WidgetStore } from './store';
import type { Marker } from '../core/event-bus';
import type { UiIconName } from '../core/icons';
import type { CreateElement } from '../core/create-element';

// Preact's h has the createElement signature the shared renderer expects.
const icon = (name: UiIconName) => renderIcon(h as unknown as CreateElement<VNode>, name);

/**
 * The agent's avatar; a `live` one wears the expression of the moment when the avatar declares it, as a fragment view
 * of the image (`avatar.svg#thinking`): the picture changes, and no script of the avatar's ever runs.
 */
function Avatar({ store, live = false }: { store: WidgetStore; live?: boolean }) {
  const { avatarUrl, avatarExpressions } = store.config.value.agent;
  const expression = live ? store.expression.value : 'idle';
  const url = avatarUrl && avatarExpressions.includes(expression) ? `${avatarUrl.split('#')[0]}#${expression}` : avatarUrl;
  return (
    <span class="scw-avatar" aria-hidden="true">
      {url ? <img src={url} alt="" width={36} height={36} /> : icon('bot')}
    </span>
  );
}

/** Someone writing: the agent before its first words, or a teammate. */
const TypingDots = ({ label }: { label: string }) => (
  <span class="scw-typing" role="img" aria-label={label}>
    <i />
    <i />
    <i />
  </span>
);

/** A teammate's message: their name and their text, always as text (never markup, never a card). */
function TeammateBubble({ message }: { message: ChatMessage }) {
  return (
    <div class="scw-msg scw-teammate" data-role="teammate" data-done="true">
      <div class="scw-bubble">
        {message.author && <span class="scw-author">{message.author}</span>}
        {message.text}
      </div>
    </div>
  );
}

function Bubble({ message, store }: { message: ChatMessage; store: WidgetStore }) {
  if (message.role === 'teammate') return <TeammateBubble message={message} />;
  if (message.role === 'event') {
    return (
      <div class="scw-msg scw-event" data-role="event" role="note">
        {message.text}
      </div>
    );
  }
  // The rich text chunk comes with the first bot message; until then (a moment) a bot message shows as plain text.
  const rich = store.rich.value;
  const onMarker = (marker: Marker, event: Event) => rich?.handleMarkerClick(store.bus, marker, event, store.locale());
  const typing = message.role === 'bot' && !message.done && !message.text;
  // Shown on hover by CSS (attr()), so the message's text stays its text.
  const time = message.at ? new Date(message.at).toLocaleTimeString(store.locale(), { hour: '2-digit', minute: '2-digit' }) : undefined;
  return (
    <div class={`scw-msg scw-${message.role}${message.error ? ' scw-error' : ''}`} data-role={message.role} data-done={String(message.done)} data-time={time}>
      {message.role === 'bot' && <Avatar store={store} live={!message.done} />}
      {typing ? (
        <TypingDots label={store.t('typing')} />
      ) : (
        <div class="scw-bubble scw-rich">
          {message.role === 'bot' && rich ? <rich.RichText text={message.text} onMarker={onMarker} message={message} store={store} /> : message.text}
          {message.stopped && <em class="scw-role"> {store.t('stopped')}</em>}
          {message.offer && rich && <rich.Offer marker={message.offer} onMarker={onMarker} />}
          {message.confirm && store.confirmCard.value && h(store.confirmCard.value, { message, store })}
        </div>
      )}
    </div>
  );
}

/** Whether a media query matches, live. */
function useMedia(query: string): boolean {
  const list = useMemo(() => matchMedia(query), [query]);
  const matches = useSignal(list.matches);
  useEffect(() => {
    const onChange = () => (matches.value = list.matches);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, [list]);
  return matches.value;
}

const INPUT_MAX_PX = 120;

/** The textarea grows with its text up to INPUT_MAX_PX, then scrolls. */
function fitInput(field: HTMLTextAreaElement): void {
  field.style.height = 'auto';
  field.style.height = `${Math.min(field.scrollHeight + 2, INPUT_MAX_PX)}px`;
}

function Panel({ store, onClose }: { store: WidgetStore; onClose: () => void }) {
  const input = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLDivElement>(null);
  // Follow new text only while the visitor is at the bottom; reading further up is never interrupted. A scroll event
  // may arrive after more text grew the log: only a position above where the widget last scrolled to is the visitor's.
  const following = useRef(true);
  const autoTop = useRef(0);
  const fullScreen = useMedia('(max-width: 640px)');
  const messages = store.messages.value;
  const { t } = store;

  useLayoutEffect(() => input.current?.focus(), []);
  useLayoutEffect(() => {
    const el = log.current;
    if (!el || !following.current) return;
    el.scrollTo({ top: el.scrollHeight });
    autoTop.current = el.scrollTop;
  }, [messages]);
  const onScroll = () => {
    const el = log.current;
    if (el) following.current = el.scrollTop >= autoTop.current - 1 || el.scrollHeight - el.scrollTop - el.clientHeight < 24;
  };

  const submit = (event: Event) => {
    event.preventDefault();
    const field = input.current;
    if (!field || store.streaming.value) return;
    following.current = true;
    void store.send(field.value);
    field.value = '';
    fitInput(field);
  };
  const onInput = (event: Event) => {
    fitInput(event.currentTarget as HTMLTextAreaElement);
    // The visitor is writing: the chat client and the rich text load now, so the send does not wait for them.
    store.prepareReply();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) submit(event);
  };

  return (
    <section class="scw-panel" role="dialog" aria-modal={fullScreen ? 'true' : undefined} aria-label={`${t('conversation')}: ${store.agentName()}`}>
      <div class="scw-header">
        <Avatar store={store} live />
        <div class="scw-title">
          <div class="scw-name">{store.agentName()}</div>
          <div class="scw-role">
            {/* Who answers: the teammate who joined, else the agent's role. */}
            {store.people.value?.assignee || store.config.value.agent.role || t('defaultRole')}
          </div>
        </div>
        <button type="button" class="scw-icon-btn" aria-label={t('clear')} title={t('clear')} onClick={store.clear}>
          {icon('trash')}
        </button>
        <button type="button" class="scw-icon-btn" aria-label={t('closeChat')} title={t('closeChat')} onClick={onClose}>
          {icon('close')}
        </button>
      </div>
      <div class="scw-log" role="log" aria-live="off" ref={log} onScroll={onScroll}>
        {messages.length === 0 && (
          <div class="scw-msg scw-bot">
            <div class="scw-bubble">{t('welcome')}</div>
          </div>
        )}
        {messages.map((message) => (
          <Bubble key={message.id} message={message} store={store} />
        ))}
        {store.teammateTyping.value && (
          <div class="scw-msg scw-teammate" data-role="teammate-typing">
            <TypingDots label={t('typing', { name: store.teammateTyping.value })} />
          </div>
        )}
      </div>
      {store.emailWanted.value && store.emailForm.value && !store.streaming.value && h(store.emailForm.value, { store })}
      <form class="scw-form" onSubmit={submit}>
        <textarea ref={input} rows={1} maxLength={4000} aria-label={t('inputLabel')} placeholder={t('placeholder')} onKeyDown={onKeyDown} onInput={onInput} />
        {store.streaming.value ? (
          <button type="button" class="scw-send" aria-label={t('stop')} title={t('stop')} onClick={store.stop}>
            {icon('stop')}
          </button>
        ) : (
          <button type="submit" class="scw-send" aria-label={t('send')}>
            {icon('send')}
          </button>
        )}
      </form>
    </section>
  );
}

/** The teaser's words, with the configured highlight word (else the default word) picked out where it occurs. */
function teaserParts(text: string, highlight: string, fallback: string): [string, string, string] {
  const word = highlight && text.includes(highlight) ? highlight : fallback;
  const at = text.indexOf(word);
  if (!word || at < 0) return [text, '', ''];
  return [text.slice(0, at), word, text.slice(at + word.length)];
}

function Teaser({ store }: { store: WidgetStore }) {
  const { t } = store;
  const [before, word, after] = teaserParts(t('teaser', { word: t('teaserWord') }), store.config.value.widget.teaserHighlightWord, t('teaserWord'));
  return (
    <div class="scw-teaser" role="status">
      <button type="button" class="scw-teaser-text" onClick={() => store.setOpen(true)}>
        {before}
        {word && <strong class="scw-hl">{word}</strong>}
        {after}
      </button>
      <button type="button" class="scw-icon-btn scw-dismiss" aria-label={t('dismiss')} onClick={store.dismissTeaser}>
        {icon('close')}
      </button>
    </div>
  );
}

export function App({ store }: { store: WidgetStore }) {
  const fab = useRef<HTMLButtonElement>(null);
  const open = store.open.value;
  const { t } = store;
  const branding = store.config.value.branding;
  const badge = store.badge.value;

  const close = () => {
    store.setOpen(false);
    // Focus returns to the FAB once it is rendered again.
    setTimeout(() => fab.current?.focus());
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && store.open.value) {
      event.stopPropagation();
      close();
    }
  };
  const label = t(open ? 'closeChat' : 'openChat') + (badge ? `, ${t('unread', { count: badge })}` : '');
  const style = { '--scw-primary': branding.primaryColor, '--scw-from': branding.gradientFrom, '--scw-to': branding.gradientTo };

  return (
    <div class={`scw-root${store.dark.value ? ' dark' : ''}${open ? ' scw-open' : ''}`} style={style} onKeyDown={onKeyDown} lang={store.locale()}>
      {store.teaserVisible.value && !store.nudgeText.value && !open && store.fabVisible.value && <Teaser store={store} />}
      {store.nudgeText.value && !open && store.fabVisible.value && (
        <div class="scw-nudge" role="status">
          {store.nudgeText.value}
        </div>
      )}
      {open && <Panel store={store} onClose={close} />}
      {store.fabVisible.value && (
        <button
          ref={fab}
          type="button"
          class={`scw-fab${store.loading.value ? ' scw-loading' : ''}${store.fabHighlight.value ? ' scw-highlight' : ''}`}
          aria-label={label}
          aria-expanded={open}
          data-ready={String(!store.loading.value)}
          onClick={() => store.setOpen(!open)}
        >
          {icon(open ? 'close' : 'chat')}
          {badge ? (
            <span class="scw-badge" aria-hidden="true">
              {badge > 99 ? '99+' : badge}
            </span>
          ) : null}
        </button>
      )}
      <div class="scw-sr" role="status" aria-live="polite">
        {store.announcement.value}
      </div>
    </div>
  );
}
