import { computed, signal } from '@preact/signals';
import { configureClient, post } from './api/client';
import { roleMay, type Permission } from './permissions';
import type { DataAt } from './api/types';

/** The signed-in person, their workspaces and the CSRF token (auth/session). */
export type SessionState = DataAt<'auth/session'>;

/** The session: undefined while it loads, null when nobody is signed in. */
export const session = signal<SessionState | null | undefined>(undefined);
/** The workspace picked in the switcher. */
export const workspaceId = signal('');

export interface AppState {
  session: SessionState;
  workspaceId: string;
  role: string;
  /** Whether the person's role in the picked workspace allows the permission (controls are disabled, not hidden). */
  may(permission: Permission): boolean;
  switchWorkspace(id: string): void;
  /** The person's profile changed (auth/profile_update): the shell shows the new one. */
  updateUser(user: SessionState['user']): void;
  signOut(): Promise<void>;
}

export function switchWorkspace(id: string): void {
  rememberWorkspace(id);
  configureClient({ workspaceId: id });
  workspaceId.value = id;
}

function updateUser(user: SessionState['user']): void {
  if (session.value) session.value = { ...session.value, user };
}

async function signOut(): Promise<void> {
  await post('auth/signout');
  session.value = null;
}

const app = computed<AppState | null>(() => {
  const current = session.value;
  if (!current) return null;
  const role = current.workspaces.find((workspace) => workspace.id === workspaceId.value)?.role ?? 'member';
  return { session: current, workspaceId: workspaceId.value, role, may: (permission) => roleMay(role, permission), switchWorkspace, updateUser, signOut };
});

/** The signed-in shell's state; a component that reads it renders again when it changes. */
export function useApp(): AppState {
  const current = app.value;
  if (!current) throw new Error('useApp outside the signed-in shell');
  return current;
}

const WORKSPACE_KEY = 'dashboard.workspace';
export const rememberedWorkspace = (): string | null => localStorage.getItem(WORKSPACE_KEY);
export const rememberWorkspace = (id: string): void => localStorage.setItem(WORKSPACE_KEY, id);

/**
 * `return_to` from the query: honoured only as a same-origin path under /oauth/ or /dashboard/, so a sign-in link can
 * bring the person back to the consent page or a screen, never send them to another site (an open redirect).
 */
export function safeReturnTo(value: string | null, origin = location.origin): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  const url = new URL(value, origin);
  if (url.origin !== origin) return null;
  return /^\/(oauth|dashboard)\//.test(url.pathname) ? url.pathname + url.search + url.hash : null;
}
