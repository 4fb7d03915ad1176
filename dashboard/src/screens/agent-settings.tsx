import { useEffect, useState } from 'preact/hooks';
import { get, post } from '../api/client';
import type { DataAt } from '../api/types';
import { useApp } from '../session';
import { ActionForm, ErrorNote, Loading, RoleNote, SaveRow, Screen } from '../components';
import { useAction, useLoad } from '../hooks';
import { AgentTabs } from './agent-tabs';
import { CONVERSATION_LANGUAGES, languageName } from '@service/shared/languages';

interface Form {
  name: string;
  role: string;
  persona: string;
  locale: string;
  avatar_url: string;
  company_name: string;
  primary: string;
  gradient_from: string;
  gradient_to: string;
  show_delay_ms: string;
  teaser_delay_ms: string;
  idle_nudge_delay_ms: string;
  teaser_word: string;
  allowed_origins: string;
}

type Agent = DataAt<'agents/get'>['agent'];

function formOf(agent: Agent): Form {
  const { colors, widget } = agent;
  return {
    name: agent.name,
    role: agent.role,
    persona: agent.persona,
    locale: agent.locale,
    avatar_url: agent.avatar_url,
    company_name: agent.company_name,
    ...colors,
    show_delay_ms: String(widget.show_delay_ms),
    teaser_delay_ms: String(widget.teaser_delay_ms),
    idle_nudge_delay_ms: String(widget.idle_nudge_delay_ms),
    teaser_word: agent.teaser_word,
    allowed_origins: agent.allowed_origins.join('\n'),
  };
}

export default function Settings({ params }: { params: string[] }) {
  const agentId = params[0]!;
  const app = useApp();
  const agent = useLoad(() => get('agents/get', { agent_id: agentId }), [agentId]);
  const [form, setForm] = useState<Form | null>(null);
  const [saved, setSaved] = useState(0);
  useEffect(() => {
    if (agent.data) setForm(formOf(agent.data.agent));
  }, [agent.data]);
  const save = useAction(async () => {
    if (!form) return;
    const origins = form.allowed_origins.split(/\s+/).filter(Boolean);
    await post('agents/update', {
      agent_id: agentId,
      name: form.name,
      role: form.role,
      persona: form.persona,
      locale: form.locale,
      avatar_url: form.avatar_url,
      company_name: form.company_name,
      colors: { primary: form.primary, gradient_from: form.gradient_from, gradient_to: form.gradient_to },
      widget: {
        show_delay_ms: Number(form.show_delay_ms),
        teaser_delay_ms: Number(form.teaser_delay_ms),
        idle_nudge_delay_ms: Number(form.idle_nudge_delay_ms),
      },
      teaser_word: form.teaser_word,
      allowed_origins: origins,
    });
    setSaved((count) => count + 1);
  });
  const field = (key: keyof Form) => ({
    id: `f-${key}`,
    name: key,
    value: form?.[key] ?? '',
    onInput: (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement }) =>
      setForm((current) => current && { ...current, [key]: event.currentTarget.value }),
  });
  return (
    <Screen title="Settings" intro={agent.data ? `${agent.data.agent.name}: how the agent introduces itself and how its widget looks.` : undefined}>
      <AgentTabs agentId={agentId} current="settings" />
      <RoleNote permission="manage" action="changing settings" />
      <ErrorNote error={agent.error} />
      {!form ? (
        <Loading what="settings" />
      ) : (
        <div class="split">
          <ActionForm class="settings" onSubmit={save.run}>
            <fieldset disabled={!app.may('manage')}>
              <legend>Agent</legend>
              <label for="f-name">Name</label>
              <input {...field('name')} required maxLength={80} />
              <label for="f-role">Role</label>
              <input {...field('role')} maxLength={120} />
              <label for="f-persona">Persona</label>
              <textarea {...field('persona')} rows={5} maxLength={4000} />
              <label for="f-locale">Locale</label>
              <select {...field('locale')}>
                {/* A regional locale set through the API (pt-BR) stays selectable beside the languages. */}
                {((CONVERSATION_LANGUAGES as readonly string[]).includes(form.locale) ? CONVERSATION_LANGUAGES : [form.locale, ...CONVERSATION_LANGUAGES]).map(
                  (tag) => (
                    <option key={tag} value={tag}>{`${languageName(tag)} (${tag})`}</option>
                  ),
                )}
              </select>
              <label for="f-avatar_url">Avatar URL</label>
              <input {...field('avatar_url')} inputMode="url" />
            </fieldset>
            <fieldset disabled={!app.may('manage')}>
              <legend>Widget</legend>
              <label for="f-company_name">Company name</label>
              <input {...field('company_name')} maxLength={120} />
              <div class="colors">
                <span>
                  <label for="f-primary">Brand colour</label>
                  <input type="color" {...field('primary')} />
                </span>
                <span>
                  <label for="f-gradient_from">Gradient from</label>
                  <input type="color" {...field('gradient_from')} />
                </span>
                <span>
                  <label for="f-gradient_to">Gradient to</label>
                  <input type="color" {...field('gradient_to')} />
                </span>
              </div>
              <label for="f-show_delay_ms">Show the button after (ms)</label>
              <input type="number" min={0} max={600000} step={100} {...field('show_delay_ms')} />
              <label for="f-teaser_delay_ms">Teaser after (ms)</label>
              <input type="number" min={0} max={600000} step={100} {...field('teaser_delay_ms')} />
              <label for="f-idle_nudge_delay_ms">Idle nudge after (ms)</label>
              <input type="number" min={0} max={600000} step={100} {...field('idle_nudge_delay_ms')} />
              <label for="f-teaser_word">Teaser word</label>
              <input {...field('teaser_word')} maxLength={80} />
              <label for="f-allowed_origins">Allowed origins (one per line, e.g. https://shop.example)</label>
              <textarea {...field('allowed_origins')} rows={3} />
            </fieldset>
            <SaveRow permission="manage" busy={save.busy} saved={saved > 0} error={save.error} />
          </ActionForm>
          <Preview agentId={agentId} form={form} version={saved} />
        </div>
      )}
    </Screen>
  );
}

/** A sketch that follows the form as it is typed (SVG attributes, no inline styles), and the real widget as saved. */
function Preview({ agentId, form, version }: { agentId: string; form: Form; version: number }) {
  const teaser = `${form.teaser_word || 'Hi'} · ${form.name}${form.company_name ? `, ${form.company_name}` : ''}`;
  return (
    <aside class="preview" aria-label="Widget preview">
      <h2>Preview</h2>
      <svg viewBox="0 0 280 120" width="280" height="120" role="img" aria-label={`Launcher in ${form.primary} with the teaser: ${teaser}`}>
        <defs>
          <linearGradient id="preview-gradient" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stop-color={form.gradient_from} />
            <stop offset="1" stop-color={form.gradient_to} />
          </linearGradient>
        </defs>
        <rect x="8" y="16" width="200" height="44" rx="12" class="teaser-bubble" />
        <text x="20" y="43" class="teaser-text">
          {teaser.length > 30 ? `${teaser.slice(0, 29)}…` : teaser}
        </text>
        <circle cx="244" cy="84" r="28" fill="url(#preview-gradient)" />
        <circle cx="244" cy="84" r="29" fill="none" stroke={form.primary} stroke-width="2" />
        <path d="M232 76h24v14h-14l-6 6v-6h-4z" class="fab-icon" />
      </svg>
      <p class="muted small">The live widget below shows the saved settings; Save to refresh it.</p>
      <iframe title="Live widget preview" class="preview-frame" src={`preview.html?agent=${encodeURIComponent(agentId)}&v=${version}`} />
    </aside>
  );
}
