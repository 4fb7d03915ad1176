import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { roleMay, type Permission } from './permissions';
import type { DataAt } from './api/types';

/** The signed-in person, their workspaces and the CSRF token (auth/session). */
export type SessionState = DataAt<'auth/session'>;

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

export const AppContext = createContext<AppState | null>(null);

export function useApp(): AppState {
  const app = useContext(AppContext);
  if (!app) throw new Error('useApp outside the signed-in shell');
  return app;
}

export const mayFor = (role: string) => (permission: Permission) => roleMay(role, permission);

const WORKSPACE_KEY = 'dashboard.workspace';
export const rememberedWorkspace = (): string | null => localStorage.getItem(WORKSPACE_KEY);
export const rememberWorkspace = (id: string): void => localStorage.setItem(WORKSPACE_KEY, id);

/** `return_to` from the query: honoured only as a same-origin path under /oauth/ or /dashboard/ (PLAN.md). */
export function safeReturnTo(value: string | null, origin = location.origin): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  const url = new URL(value, origin);
  if (url.origin !== origin) return null;
  return /^\/(oauth|dashboard)\//.test(url.pathname) ? url.pathname + url.search + url.hash : null;
}
