import { href } from '../href';
import { AGENT_SCREENS, type AgentScreen } from '../agent-screens';

/** The screens of one agent, as links (each its own screen and heading). */
export function AgentTabs({ agentId, current }: { agentId: string; current: AgentScreen }) {
  return (
    <nav class="tabs" aria-label="Agent">
      <a href={href('agents')}>← Agents</a>
      {Object.entries(AGENT_SCREENS).map(([screen, label]) => (
        <a key={screen} href={href('agents', agentId, screen)} aria-current={screen === current ? 'page' : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}
