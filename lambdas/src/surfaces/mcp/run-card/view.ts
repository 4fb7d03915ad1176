/**
 * The run card's browser files. The card runs in the host's sandboxed frame under a CSP without 'unsafe-inline', so
 * its script and stylesheet are files (served by assets.ts) that the HTML document links, never inline content.
 *
 * The script speaks the MCP Apps postMessage JSON-RPC of the View (ui/initialize, then ui/notifications/initialized)
 * and draws the card from each ui/notifications/tool-result. renderRunCard is a function of the run alone (the
 * tool's structured content plus the agent's name from the result's _meta), so steps and approval buttons are added
 * there.
 */
export const RUN_CARD_SCRIPT = String.raw`(() => {
  'use strict';
  const PROTOCOL_VERSION = '2026-01-26';
  const AGENT_META_KEY = 'service-platform/agent';
  const STATUS_LABELS = { queued: 'Queued', running: 'Working', completed: 'Completed', failed: 'Failed', cancelled: 'Cancelled' };
  const pending = new Map();
  let nextId = 1;

  const send = (message) => window.parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      send({ id, method, params });
    });

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  const cellText = (value) => (typeof value === 'string' ? value : JSON.stringify(value));

  function outputTable(output) {
    const table = element('table', 'output');
    const body = element('tbody');
    for (const [key, value] of Object.entries(output)) {
      const row = element('tr');
      row.append(element('th', '', key), element('td', '', cellText(value)));
      body.append(row);
    }
    table.append(body);
    return table;
  }

  function renderRunCard(run, agent) {
    const card = element('article', 'card');
    const head = element('header');
    head.append(element('span', 'agent', agent ? agent.name : run.agent_id), element('span', 'status status-' + run.status, STATUS_LABELS[run.status] || run.status));
    card.append(head, element('p', 'instruction', run.instruction));
    if (run.result_text) card.append(element('p', 'answer', run.result_text));
    if (run.error) card.append(element('p', 'problem', run.error));
    if (run.output_error) card.append(element('p', 'problem', run.output_error));
    if (run.output && Object.keys(run.output).length > 0) card.append(outputTable(run.output));
    card.append(element('footer', 'run-id', run.run_id));
    return card;
  }

  function showResult(result) {
    const root = document.getElementById('run-card');
    const run = result && result.structuredContent;
    if (result && result.isError) root.replaceChildren(element('p', 'problem', (result.content || []).map((part) => part.text || '').join('\n')));
    else if (run && run.run_id) root.replaceChildren(renderRunCard(run, result._meta && result._meta[AGENT_META_KEY]));
    // The host sets the width; the card asks for the height its content needs.
    send({ method: 'ui/notifications/size-changed', params: { height: document.documentElement.scrollHeight } });
  }

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (event.source !== window.parent || !message || message.jsonrpc !== '2.0') return;
    if (message.method === undefined) {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (waiting) (message.error ? waiting.reject(new Error(message.error.message)) : waiting.resolve(message.result));
    } else if (message.method === 'ui/notifications/tool-result') showResult(message.params);
    else if (message.id !== undefined) {
      const known = message.method === 'ping' || message.method === 'ui/resource-teardown';
      send(known ? { id: message.id, result: {} } : { id: message.id, error: { code: -32601, message: 'Method not found' } });
    }
  });

  request('ui/initialize', { appInfo: { name: 'run-card', version: '1.0.0' }, appCapabilities: {}, protocolVersion: PROTOCOL_VERSION }).then(
    () => send({ method: 'ui/notifications/initialized', params: {} }),
    (error) => console.error('The host refused the run card', error),
  );
})();
`;

export const RUN_CARD_STYLES = `
:root { color-scheme: light dark; font: 14px/1.45 system-ui, sans-serif; }
body { margin: 0; }
.card { border: 1px solid #8884; border-radius: 10px; padding: 12px 14px; }
header { display: flex; justify-content: space-between; align-items: center; gap: 8px; }
.agent { font-weight: 600; }
.status { border-radius: 999px; padding: 1px 10px; font-size: 12px; background: #8882; }
.status-completed { background: #1a7f3722; color: #1a7f37; }
.status-failed, .status-cancelled { background: #cf222e22; color: #cf222e; }
.instruction { color: #888; margin: 6px 0; }
.answer { white-space: pre-wrap; margin: 8px 0; }
.problem { color: #cf222e; }
.output { border-collapse: collapse; width: 100%; margin: 8px 0; }
.output th, .output td { text-align: left; vertical-align: top; border-top: 1px solid #8884; padding: 4px 8px 4px 0; }
.output th { font-weight: 600; white-space: nowrap; }
.run-id { color: #888; font-size: 11px; font-family: ui-monospace, monospace; }
`;
