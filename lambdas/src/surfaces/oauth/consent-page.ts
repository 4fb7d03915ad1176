import { MCP_SCOPE_TEXT, type McpScope } from '@service/shared';
import { createHash } from 'node:crypto';
import type { HttpResult } from '../../infra/http/event';

/** The authorization request as the consent form carries it back (hidden fields). */
export interface AuthorizationRequest {
  client_id: string;
  redirect_uri: string;
  state?: string;
  code_challenge: string;
  code_challenge_method: string;
  scope: string;
  resource?: string;
  response_type: string;
}

export interface ConsentView {
  request: AuthorizationRequest;
  client: { name: string; uri: string | null; verifiedDomain: string | null };
  userEmail: string;
  csrfToken: string;
  requested: McpScope[];
  workspaces: Array<{ id: string; name: string; role: string; agents: Array<{ id: string; name: string; role: string }> }>;
  problem?: string;
}

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

const CSS = `body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f5f6fa;color:#1f2430}
main{max-width:560px;margin:32px auto;background:#fff;border-radius:12px;padding:24px 28px;box-shadow:0 1px 4px #0002}
h1{font-size:20px;margin:0 0 4px}.muted{color:#5b6275;font-size:13px}.verified{color:#137333}
fieldset{border:1px solid #d9dce5;border-radius:8px;margin:16px 0;padding:10px 14px}legend{font-weight:600;padding:0 4px}
label{display:block;margin:6px 0}.detail{display:block;margin-left:24px;color:#5b6275;font-size:13px}
.act{border-color:#d93025;background:#fff6f5}.warn{color:#a50e0e;font-size:13px;margin:4px 0 8px}
.problem{background:#fce8e6;color:#a50e0e;padding:8px 12px;border-radius:6px}
.agents{margin-left:24px}.buttons{display:flex;gap:12px;margin-top:18px}
button{font:inherit;padding:8px 18px;border-radius:6px;border:1px solid #1a56db;cursor:pointer}
.approve{background:#1a56db;color:#fff}.deny{background:#fff;color:#1a56db}code{word-break:break-all}`;
const CSS_HASH = `'sha256-${createHash('sha256').update(CSS).digest('base64')}'`;

/** Where the form's answer redirects to, for CSP form-action (browsers apply it to the redirect after the POST). */
function formActionTarget(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}

function page(title: string, body: string, formTarget?: string): HttpResult {
  const csp = [
    "default-src 'none'",
    `style-src ${CSS_HASH}`,
    "img-src 'self'",
    `form-action 'self'${formTarget ? ` ${formTarget}` : ''}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': csp,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      // same-origin, not no-referrer: with no-referrer the browser sends `Origin: null` on the form's POST.
      'referrer-policy': 'same-origin',
    },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${CSS}</style></head><body><main>${body}</main></body></html>`,
  };
}

const hidden = (name: string, value: string | undefined) => (value === undefined ? '' : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`);

function permission(scope: McpScope, requested: McpScope[]): string {
  if (!requested.includes(scope)) return '';
  const { title, detail } = MCP_SCOPE_TEXT[scope];
  // Nothing is pre-checked: each permission is the person's own choice.
  return `<label><input type="checkbox" name="perm_${scope.replace(':', '_')}" value="1"> ${escapeHtml(title)}<span class="detail">${escapeHtml(detail)}</span></label>`;
}

/** The consent page: client, redirect target, one workspace (none preselected), permissions one by one, optional agents. */
export function consentPage(view: ConsentView): HttpResult {
  const { request, client } = view;
  const ordinary = (['agents:read', 'agents:ask', 'conversations:reply', 'offline_access'] as McpScope[])
    .map((scope) => permission(scope, view.requested))
    .join('');
  const act = view.requested.includes('agents:act')
    ? `<fieldset class="act"><legend>Real-world actions</legend><p class="warn">Only if you trust this assistant: agents will then send e-mail from their own addresses and create contacts, events and tasks when it asks them to.</p>${permission('agents:act', view.requested)}</fieldset>`
    : '';
  const workspaces = view.workspaces
    .map(
      (workspace) =>
        `<label><input type="radio" name="workspace_id" value="${escapeHtml(workspace.id)}" required> ${escapeHtml(workspace.name)} <span class="muted">(${escapeHtml(workspace.role)})</span></label>` +
        (workspace.agents.length
          ? `<div class="agents">${workspace.agents
              .map(
                (agent) =>
                  `<label><input type="checkbox" name="agent" value="${escapeHtml(agent.id)}"> ${escapeHtml(agent.name)} <span class="muted">${escapeHtml(agent.role)}</span></label>`,
              )
              .join('')}</div>`
          : ''),
    )
    .join('');
  const domain = client.verifiedDomain
    ? `<div class="verified">Verified domain: ${escapeHtml(client.verifiedDomain)}</div>`
    : '<div class="muted">Registered itself; its domain is not verified</div>';
  const body = `<h1>Connect ${escapeHtml(client.name)} to your agents</h1>${domain}
<p class="muted">Signed in as ${escapeHtml(view.userEmail)}. After you decide you go back to <code>${escapeHtml(request.redirect_uri)}</code>.</p>
${view.problem ? `<p class="problem" role="alert">${escapeHtml(view.problem)}</p>` : ''}
<form method="post" action="/oauth/authorize">
${hidden('csrf_token', view.csrfToken)}${hidden('client_id', request.client_id)}${hidden('redirect_uri', request.redirect_uri)}${hidden('state', request.state)}${hidden('code_challenge', request.code_challenge)}${hidden('code_challenge_method', request.code_challenge_method)}${hidden('scope', request.scope)}${hidden('resource', request.resource)}${hidden('response_type', request.response_type)}
<fieldset><legend>Workspace it may reach</legend>${workspaces || '<p>You are not a member of any workspace.</p>'}<p class="muted">Tick agents under the workspace to limit the connection to them; tick none for all its agents.</p></fieldset>
<fieldset><legend>Permissions</legend>${ordinary}</fieldset>${act}
<div class="buttons"><button class="approve" type="submit" name="decision" value="approve">Allow</button><button class="deny" type="submit" name="decision" value="deny" formnovalidate>Deny</button></div>
</form>`;
  return page(`Connect ${client.name}`, body, formActionTarget(request.redirect_uri));
}

/** A request we cannot send back to the client (unknown client, unregistered redirect URI): said here, never redirected. */
export function errorPage(message: string): HttpResult {
  const result = page(
    'Cannot connect',
    `<h1>This connection cannot be made</h1><p class="problem" role="alert">${escapeHtml(message)}</p><p class="muted">Nothing was shared. Close this page and try again from your assistant.</p>`,
  );
  return { ...result, statusCode: 400 };
}
