import { useState } from 'preact/hooks';
import { KNOWLEDGE_LIMITS } from '@service/shared/knowledge-limits';
import { post } from '../api/client';
import type { DataAt } from '../api/types';
import { ActionForm, ErrorNote } from '../components';
import { useAction } from '../hooks';
import type { AgentList } from './knowledge-agents';

type Passage = DataAt<'knowledge/search'>['results'][number];

/** Only http(s) links are made clickable: a passage's URL comes from the indexed content, which is data. */
const safeLink = (url: string | null): string | null => (url && /^https?:\/\//i.test(url) ? url : null);

/** "Test a question": knowledge/search as the agent's knowledge__search would run it, passages with title, link and score. */
export function TestQuestion({ agents }: { agents: AgentList }) {
  const [query, setQuery] = useState('');
  const [agentId, setAgentId] = useState('');
  const [results, setResults] = useState<{ query: string; passages: Passage[] } | null>(null);
  const search = useAction(async () => {
    const asked = query.trim();
    const { results: passages } = await post('knowledge/search', { query: asked, ...(agentId ? { agent_id: agentId } : {}) });
    setResults({ query: asked, passages });
  });
  return (
    <section class="panel" aria-labelledby="test-title">
      <h2 id="test-title">Test a question</h2>
      <p class="muted small">The passages an agent gets when it searches the knowledge for this question, best first.</p>
      <ActionForm onSubmit={search.run}>
        <label for="test-query">Question</label>
        <input id="test-query" required maxLength={KNOWLEDGE_LIMITS.maxQueryChars} value={query} onInput={(event) => setQuery(event.currentTarget.value)} />
        <label for="test-agent">As agent</label>
        <select id="test-agent" value={agentId} onChange={(event) => setAgentId(event.currentTarget.value)}>
          <option value="">Any agent (all sources)</option>
          {agents.map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.name}
            </option>
          ))}
        </select>
        <button type="submit" class="primary" disabled={search.busy}>
          Search
        </button>
      </ActionForm>
      <ErrorNote error={search.error} />
      {results ? (
        <div role="status">
          {results.passages.length === 0 ? (
            <p class="muted">Nothing found for “{results.query}”: the agent would say it does not know. Write an answer to teach it.</p>
          ) : (
            <ol class="passages" aria-label={`Passages for “${results.query}”`}>
              {results.passages.map((passage, index) => (
                <PassageItem key={`${passage.document_id}:${index}`} passage={passage} />
              ))}
            </ol>
          )}
        </div>
      ) : null}
    </section>
  );
}

function PassageItem({ passage }: { passage: Passage }) {
  const link = safeLink(passage.url);
  return (
    <li class="passage">
      <div class="row spread">
        <strong>{passage.title || passage.name}</strong>
        <span class="badge" title="Relevance score">
          score {passage.score.toFixed(3)}
        </span>
      </div>
      <p class="muted small">
        {passage.name}
        {link ? (
          <>
            {' · '}
            <a href={link} target="_blank" rel="noopener noreferrer" class="break">
              {passage.url}
            </a>
          </>
        ) : null}
      </p>
      <p class="passage-text">{passage.text}</p>
    </li>
  );
}
