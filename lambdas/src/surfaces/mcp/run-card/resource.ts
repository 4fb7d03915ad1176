import type { McpServer } from '@modelcontextprotocol/server';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { RUN_CARD_SCRIPT_FILE, RUN_CARD_STYLES_FILE } from './assets';

/** The run card (MCP Apps, io.modelcontextprotocol/ui): the UI resource get_run and ask_agent point at. */
export const RUN_CARD_URI = 'ui://service-platform/run-card.html';

/** The key of a tool result's _meta that carries the run's agent (id and name) for the card. */
export const AGENT_META_KEY = 'service-platform/agent';

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** The card's document: it only links its script and stylesheet, which the server serves from `origin`. */
export function runCardHtml(origin: string): string {
  const base = `${origin}/mcp-ui/`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<title>Run</title>',
    `<link rel="stylesheet" href="${escapeAttribute(base + RUN_CARD_STYLES_FILE)}">`,
    `<script src="${escapeAttribute(base + RUN_CARD_SCRIPT_FILE)}" defer></script>`,
    '</head>',
    '<body><main id="run-card" aria-live="polite"></main></body>',
    '</html>',
  ].join('\n');
}

/**
 * Registers the card's resource. Its CSP names the origin its two files come from (resourceDomains) and nothing it
 * would connect to: the card reads what the host delivers and calls nothing itself.
 */
export function registerRunCard(server: McpServer, origin: string): void {
  const ui = { csp: { resourceDomains: [origin], connectDomains: [] }, prefersBorder: false };
  server.registerResource(
    'run_card',
    RUN_CARD_URI,
    { title: 'Run card', description: 'A run of an agent: status, answer and structured output', mimeType: RESOURCE_MIME_TYPE, _meta: { ui } },
    async () => ({
      contents: [{ uri: RUN_CARD_URI, mimeType: RESOURCE_MIME_TYPE, text: runCardHtml(origin), _meta: { ui } }],
    }),
  );
}
