import { render, type ComponentType } from 'preact';
import { batch } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, configureClient, get, post } from './api/client';
import { rememberWorkspace, rememberedWorkspace, safeReturnTo, session, switchWorkspace, useApp, workspaceId } from './session';
import { href } from './href';
import { AGENT_SCREENS, type AgentScreen } from './agent-screens';
import { replaceUrl, route, SCREENS, type Route } from './router';
import { SignIn } from './signin';
import { unreadCount, useUnreadCount } from './unread-count';
import { useInboxStream } from './inbox-stream';
import { Loading } from './components';

/** Where a 401 sends the person: sign in, then back to the screen they were on. */
function toSignIn(): void {
  const returnTo = location.pathname + location.hash;
  location.replace(`${location.pathname}?return_to=${encodeURIComponent(returnTo)}`);
}

function App() {
  const load = async () => {
    try {
      let data = await get('auth/session');
      configureClient({ csrfToken: data.csrf_token });
      // Already signed in and following an invitation link: accept it, then show its workspace.
      const invitation = new URLSearchParams(location.search).get('invitation');
      if (invitation) {
        const { workspace } = await post('invitations/accept', { token: invitation });
        rememberWorkspace(workspace.id);
        replaceUrl(location.pathname + location.hash);
        data = await get('auth/session');
      }
      const remembered = rememberedWorkspace();
      const picked = data.workspaces.find((workspace) => workspace.id === remembered) ?? data.workspaces[0];
      configureClient({ workspaceId: picked?.id ?? '' });
      batch(() => {
        workspaceId.value = picked?.id ?? '';
        session.value = data;
      });
    } catch (error) {
      // No session (401), or none to be had: Sign in either way; a real outage shows there on the first attempt.
      if (!(error instanceof ApiError)) console.error(error);
      session.value = null;
    }
  };

  useEffect(() => {
    configureClient({ onUnauthorized: toSignIn });
    void load();
  }, []);

  if (session.value === undefined) return <Loading what="your session" />;
  if (session.value === null) return <SignIn onSignedIn={signedIn} />;
  return <Shell />;

  async function signedIn() {
    const returnTo = safeReturnTo(new URLSearchParams(location.search).get('return_to'));
    // Leave the query (code, invitation) behind either way.
    if (returnTo && !returnTo.startsWith(location.pathname + '#') && returnTo !== location.pathname) return location.assign(returnTo);
    replaceUrl(location.pathname + (returnTo ? returnTo.slice(location.pathname.length) : location.hash));
    await load();
  }
}

/** `unread`: the item shows what the signed-in teammate has not read in the conversations that concern them (unread-count.ts). */
const NAV: { section?: string; items: { label: string; to: string; screens: Route['screen'][]; badge?: 'unread' }[] }[] = [
  {
    items: [
      { label: 'Agents', to: href('agents'), screens: ['agents', ...(Object.keys(AGENT_SCREENS) as AgentScreen[])], badge: 'unread' },
      { label: 'Waiting for you', to: href('approvals'), screens: ['approvals'] },
      { label: 'Knowledge', to: href('knowledge'), screens: ['knowledge'] },
    ],
  },
  {
    section: 'Developers',
    items: [
      { label: 'Credentials', to: href('developers', 'credentials'), screens: ['credentials'] },
      { label: 'Webhooks', to: href('developers', 'webhooks'), screens: ['webhooks'] },
      { label: 'MCP connections', to: href('developers', 'mcp'), screens: ['mcp'] },
      { label: 'Traces', to: href('developers', 'traces'), screens: ['traces'] },
    ],
  },
  {
    section: 'Company',
    items: [
      { label: 'Roles & Access', to: href('company', 'roles'), screens: ['roles'] },
      { label: 'Audit log', to: href('company', 'audit'), screens: ['audit'] },
    ],
  },
  {
    items: [
      { label: 'Usage & billing', to: href('usage'), screens: ['usage'] },
      { label: 'Members', to: href('members'), screens: ['members'] },
      { label: 'Account', to: href('account'), screens: ['account'] },
    ],
  },
];

function Shell() {
  const app = useApp();
  const { session, workspaceId } = app;
  const current = route.value;
  const workspace = session.workspaces.find((candidate) => candidate.id === workspaceId);
  useInboxStream(workspaceId);
  useUnreadCount(workspaceId, session.user.id);
  const unread = unreadCount.value;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Dashboard</span>
        {session.workspaces.length > 1 ? (
          <label class="switcher">
            <span>Workspace</span>
            <select value={workspaceId} onChange={(event) => switchWorkspace(event.currentTarget.value)}>
              {session.workspaces.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.name} ({candidate.role})
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span class="switcher">{workspace ? `${workspace.name} (${workspace.role})` : 'No workspace'}</span>
        )}
        <span class="who">{session.user.email}</span>
        <button type="button" class="quiet" onClick={() => void app.signOut()}>
          Sign out
        </button>
      </header>
      <div class="layout">
        <nav aria-label="Dashboard">
          {NAV.map((group, index) => (
            <div class="nav-group" key={index}>
              {group.section ? <p class="nav-section">{group.section}</p> : null}
              <ul>
                {group.items.map((item) => (
                  <li key={item.to}>
                    <a href={item.to} aria-current={item.screens.includes(current.screen) ? 'page' : undefined}>
                      {item.label}
                      {item.badge === 'unread' && unread ? (
                        <span class="count" title={`${unread} unread in the conversations that wait for a teammate or are yours`}>
                          {' '}
                          {unread} unread
                        </span>
                      ) : null}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <main id="main">
          {workspace ? (
            <LazyScreen key={`${workspaceId}:${current.screen}:${current.params.join('/')}`} route={current} />
          ) : (
            <p>You are not a member of any workspace yet. Ask an owner to invite you.</p>
          )}
        </main>
      </div>
    </>
  );
}

/** Each screen is its own chunk, loaded when it is first opened. */
function LazyScreen({ route }: { route: Route }) {
  const [Screen, setScreen] = useState<ComponentType<{ params: string[] }> | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    SCREENS[route.screen]().then(
      (module) => current && setScreen(() => module.default),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [route.screen]);
  if (failed) return <p role="alert">This screen could not be loaded. Reload the page to try again.</p>;
  return Screen ? <Screen params={route.params} /> : <Loading what="the screen" />;
}

render(<App />, document.getElementById('app')!);
