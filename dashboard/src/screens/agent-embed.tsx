import { get } from '../api/client';
import { AgentTabs } from './agent-tabs';
import { CopyButton, ErrorNote, Screen } from '../components';
import { useLoad } from '../hooks';

/** The loader's absolute URL: the embed files are served beside the dashboard (same origin, `/embed/`). */
export const loaderUrl = () => new URL('/embed/loader.js', location.origin).href;

export const scriptSnippet = (agentId: string) => `<script src="${loaderUrl()}" data-agent-id="${agentId}" async></script>`;

export const reactSnippet = (agentId: string) => `import { ChatWidget } from '@service/chat-widget/react';

export function App() {
  return <ChatWidget agentId="${agentId}" apiUrl="${location.origin}" />;
}`;

export default function WidgetEmbed({ params }: { params: string[] }) {
  const agentId = params[0]!;
  const agent = useLoad(() => get('agents/get', { agent_id: agentId }), [agentId]);
  const snippet = scriptSnippet(agentId);
  const react = reactSnippet(agentId);
  return (
    <Screen title="Widget Embed" intro={agent.data ? `Put ${agent.data.agent.name} on your site.` : undefined}>
      <AgentTabs agentId={agentId} current="embed" />
      <ErrorNote error={agent.error} />
      <h2>One line of HTML</h2>
      <p>Paste it before the closing body tag of every page the agent should appear on. The page's origin must be in the agent's allowed origins (Settings).</p>
      <pre class="code" aria-label="Embed snippet">
        <code id="embed-snippet">{snippet}</code>
      </pre>
      <CopyButton text={snippet} label="Copy snippet" />
      <h2>Agent UUID</h2>
      <p class="mono" id="agent-uuid">
        {agentId}
      </p>
      <CopyButton text={agentId} label="Copy UUID" />
      <h2>React</h2>
      <p>
        With <code>npm install @service/chat-widget</code>:
      </p>
      <pre class="code" aria-label="React snippet">
        <code>{react}</code>
      </pre>
      <CopyButton text={react} label="Copy React snippet" />
    </Screen>
  );
}
