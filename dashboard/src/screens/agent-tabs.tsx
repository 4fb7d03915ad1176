import { href } from '../href';

const TABS = [
  ['settings', 'Settings'],
  ['embed', 'Widget Embed'],
  ['runs', 'Runs'],
  ['conversations', 'Conversations'],
] as const;

/** The four screens of one agent, as links (each its own screen and heading). */
export function AgentTabs({ agentId, current }: { agentId: string; current: (typeof TABS)[number][0] }) {
  return (
    <nav class="tabs" aria-label="Agent">
      <a href={href('agents')}>← Agents</a>
      {TABS.map(([screen, label]) => (
        <a key={screen} href={href('agents', agentId, screen)} aria-current={screen === current ? 'page' : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}
