import { OAuthRefusal, randomBase62 } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { LRUCache } from 'lru-cache';
import {
  addAccessToken,
  connectionsOfWorkspace,
  endConnection,
  findConnection,
  putConnection,
  removeAccessToken,
  type ApprovedConnection,
  type StoredConnection,
} from './connection-repository';
import { findSecret, putSecret, useSecretOnce } from './oauth-token-repository';
import { newOAuthSecret, pkceMatches } from './secrets';
import { storedHash } from '../../infra/secrets/stored-hash';
import { outlastVouches, vouchedCheck } from '../../infra/cache/vouching';

/** Authorization codes live 5 minutes; access tokens 15 (short-lived, opaque); refresh tokens 30 days, rotated on every use. */
export const CODE_SECONDS = 5 * 60;
export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 60 * 60;

export interface TokenSet {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

const expiry = (deps: Deps, seconds: number) => {
  const at = new Date(deps.now().getTime() + seconds * 1000);
  return { expiresAt: at.toISOString(), expiresAtEpoch: Math.ceil(at.getTime() / 1000) + 24 * 60 * 60 };
};
const expired = (deps: Deps, expiresAt: string) => expiresAt <= deps.now().toISOString();

export const newConnectionId = (): string => `mcn_${randomBase62(20)}`;

/** Issues the authorization code for what the person approved on the consent page; the connection starts when it is exchanged. */
export async function issueAuthorizationCode(
  deps: Deps,
  input: { clientId: string; redirectUri: string; codeChallenge: string; approved: ApprovedConnection },
): Promise<string> {
  const code = newOAuthSecret('mcp_code');
  await putSecret(deps, { tokenHash: storedHash(code), kind: 'code', ...expiry(deps, CODE_SECONDS), ...input });
  return code;
}

/**
 * An access token names its connection (`mcp_at_<connection id>.<secret>`): the connection item holds the hashes of
 * its live tokens, so verifying a token is one read that also sees a withdrawal.
 */
const ACCESS_PREFIX = 'mcp_at_';
function parseAccessToken(token: string): { connectionId: string; tokenHash: string } | undefined {
  const match = /^mcp_at_(mcn_[A-Za-z0-9]{20})\.([A-Za-z0-9_-]{43})$/.exec(token);
  return match ? { connectionId: match[1]!, tokenHash: storedHash(match[2]!) } : undefined;
}

async function issueTokens(deps: Deps, connection: StoredConnection, scopes: string[]): Promise<TokenSet> {
  const secret = newOAuthSecret('mcp_at').slice(ACCESS_PREFIX.length);
  const access = `${ACCESS_PREFIX}${connection.id}.${secret}`;
  const base = { clientId: connection.clientId, connectionId: connection.id, workspaceId: connection.workspaceId, userId: connection.userId, scopes };
  const refresh = scopes.includes('offline_access') ? newOAuthSecret('mcp_rt') : undefined;
  const now = deps.now().toISOString();
  const expired = Object.entries(connection.accessTokens ?? {})
    .filter(([, token]) => token.expiresAt <= now)
    .map(([hash]) => hash);
  await Promise.all([
    addAccessToken(deps, connection.id, storedHash(secret), { expiresAt: expiry(deps, ACCESS_TOKEN_SECONDS).expiresAt, scopes }, expired),
    ...(refresh ? [putSecret(deps, { tokenHash: storedHash(refresh), kind: 'refresh', ...expiry(deps, REFRESH_TOKEN_SECONDS), ...base })] : []),
  ]);
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    ...(refresh ? { refresh_token: refresh } : {}),
    scope: scopes.join(' '),
  };
}

function checkResource(presented: string | undefined, expected: string, required: boolean): void {
  if (presented === undefined) {
    if (required) throw new OAuthRefusal('invalid_target', `resource is required: this authorization server issues tokens for ${expected} only`);
    return;
  }
  if (presented !== expected) throw new OAuthRefusal('invalid_target', `Tokens are issued for ${expected} only, not for ${presented}`);
}

/**
 * authorization_code grant: single use (a second use revokes the connection the first one started, RFC 6749 §4.1.2),
 * same client and redirect URI, PKCE S256, and `resource` naming this MCP server (RFC 8707). Starting a connection
 * replaces this client's earlier connection for the same person and workspace (a step-up re-authorizes).
 */
export async function exchangeCode(
  deps: Deps,
  input: { code: string; codeVerifier?: string; redirectUri?: string; clientId?: string; resource?: string },
  canonicalResource: string,
): Promise<TokenSet> {
  const codeHash = storedHash(input.code);
  const stored = await findSecret(deps, codeHash);
  if (!stored || stored.kind !== 'code') throw new OAuthRefusal('invalid_grant', 'Unknown authorization code');
  if (input.clientId !== stored.clientId) throw new OAuthRefusal('invalid_grant', 'The authorization code was issued to another client');
  if (stored.usedAt !== undefined || !(await useSecretOnce(deps, codeHash, deps.now().toISOString()))) {
    await endAccess(deps, stored.approved.id, 'revoked', 'authorization code used twice');
    throw new OAuthRefusal('invalid_grant', 'The authorization code was already used; the connection it started is revoked');
  }
  if (expired(deps, stored.expiresAt)) throw new OAuthRefusal('invalid_grant', 'The authorization code expired');
  if (input.redirectUri !== stored.redirectUri) throw new OAuthRefusal('invalid_grant', 'redirect_uri does not match the one of the authorization request');
  if (!input.codeVerifier || !pkceMatches(input.codeVerifier, stored.codeChallenge))
    throw new OAuthRefusal('invalid_grant', 'code_verifier does not match the code_challenge (PKCE S256)');
  checkResource(input.resource, stored.approved.resource, true);
  checkResource(input.resource, canonicalResource, true);

  const now = deps.now().toISOString();
  const connection: StoredConnection = { ...stored.approved, createdAt: now, status: 'active', accessTokens: {} };
  if (!(await putConnection(deps, connection))) throw new OAuthRefusal('invalid_grant', 'The authorization code was already used');
  const earlier = (await connectionsOfWorkspace(deps, connection.workspaceId)).filter(
    (other) => other.id !== connection.id && other.status === 'active' && other.clientId === connection.clientId && other.userId === connection.userId,
  );
  await Promise.all(earlier.map((other) => endConnection(deps, other.id, 'replaced', `re-authorized as ${connection.id}`, now)));
  return issueTokens(deps, connection, connection.scopes);
}

/**
 * refresh_token grant: the token rotates on every use; a refresh token presented a second time means it leaked, so
 * the whole connection is revoked. A withdrawn connection answers invalid_grant. The new tokens are written before the
 * old refresh token is marked used, so a crash in between leaves the old one working for the client's retry (the
 * unsent new ones stay unknown); marking it used is the last write before the answer.
 */
export async function refreshTokens(
  deps: Deps,
  input: { refreshToken: string; clientId?: string; resource?: string; scope?: string },
  canonicalResource: string,
): Promise<TokenSet> {
  const tokenHash = storedHash(input.refreshToken);
  const stored = await findSecret(deps, tokenHash);
  if (!stored || stored.kind !== 'refresh') throw new OAuthRefusal('invalid_grant', 'Unknown refresh token');
  if (input.clientId !== stored.clientId) throw new OAuthRefusal('invalid_grant', 'The refresh token was issued to another client');
  checkResource(input.resource, canonicalResource, false);
  const connection = await findConnection(deps, stored.connectionId);
  if (!connection || connection.status !== 'active')
    throw new OAuthRefusal('invalid_grant', `The connection was ${connection?.status ?? 'removed'}; authorize again`);
  const replayed = async () => {
    await endAccess(deps, connection.id, 'revoked', 'refresh token used twice');
    return new OAuthRefusal('invalid_grant', 'The refresh token was already used; the connection is revoked');
  };
  if (stored.usedAt !== undefined) throw await replayed();
  if (expired(deps, stored.expiresAt)) throw new OAuthRefusal('invalid_grant', 'The refresh token expired; authorize again');
  let scopes = stored.scopes.filter((scope) => connection.scopes.includes(scope));
  if (input.scope !== undefined) {
    const asked = input.scope.split(' ').filter(Boolean);
    const beyond = asked.find((scope) => !scopes.includes(scope));
    if (beyond) throw new OAuthRefusal('invalid_scope', `${beyond} was not granted to this connection; authorize again to ask for it`);
    scopes = asked.includes('offline_access') ? asked : [...asked, 'offline_access'];
  }
  const tokens = await issueTokens(deps, connection, scopes);
  // A concurrent use of the same refresh token got here first: a replay all the same.
  if (!(await useSecretOnce(deps, tokenHash, deps.now().toISOString()))) throw await replayed();
  return tokens;
}

export interface VerifiedAccess<T> {
  connection: StoredConnection;
  scopes: string[];
  expiresAt: string;
  /** What `alongside` read for the token's person and workspace, at the same time as the connection. */
  alongside: T;
}

/** Who a connection belongs to never changes: remembered per container so the person's role is read beside it. */
const owners = new LRUCache<string, { workspaceId: string; userId: string }>({ max: 10_000 });

/**
 * The connection behind an access token, with `alongside` (the person's membership) read in parallel once the
 * connection's owner is known. A container acts on a verification for VOUCH_MS (a second) without reading again;
 * whatever ends a connection's access (withdrawal, revocation, a reused code or refresh token, a member's new role or
 * removal) outlasts that before it answers, so the next call after it fails (or acts for the new role) everywhere.
 */
export async function verifyAccessToken<T>(
  deps: Deps,
  token: string,
  alongside: (workspaceId: string, userId: string) => Promise<T>,
): Promise<VerifiedAccess<T>> {
  const parsed = parseAccessToken(token);
  if (!parsed) throw new OAuthRefusal('invalid_token', 'Unknown access token');
  return vouchedCheck(
    deps,
    `mcp-access:${parsed.tokenHash}`,
    () => readAccessToken(deps, parsed, alongside),
    (verified) => !expired(deps, verified.expiresAt),
  );
}

async function readAccessToken<T>(
  deps: Deps,
  parsed: { connectionId: string; tokenHash: string },
  alongside: (workspaceId: string, userId: string) => Promise<T>,
): Promise<VerifiedAccess<T>> {
  const owner = owners.get(parsed.connectionId);
  const [connection, early] = await Promise.all([findConnection(deps, parsed.connectionId), owner ? alongside(owner.workspaceId, owner.userId) : undefined]);
  const live = connection?.accessTokens?.[parsed.tokenHash];
  if (!connection || !live) throw new OAuthRefusal('invalid_token', 'Unknown access token');
  if (expired(deps, live.expiresAt)) throw new OAuthRefusal('invalid_token', 'The access token expired');
  if (connection.status !== 'active') throw new OAuthRefusal('invalid_token', `The connection was ${connection.status}`);
  owners.set(connection.id, { workspaceId: connection.workspaceId, userId: connection.userId });
  const extra = owner ? (early as T) : await alongside(connection.workspaceId, connection.userId);
  return { connection, scopes: live.scopes.filter((scope) => connection.scopes.includes(scope)), expiresAt: live.expiresAt, alongside: extra };
}

/** Ends a connection (its tokens and refresh token), answering once no container acts on a verification of it. */
export async function endAccess(
  deps: Deps,
  connectionId: string,
  status: 'revoked' | 'withdrawn',
  reason: string,
  at = deps.now().toISOString(),
): Promise<boolean> {
  const ended = await endConnection(deps, connectionId, status, reason, at);
  await outlastVouches();
  return ended;
}

/**
 * Token revocation (RFC 7009): an access token stops at once; a refresh token ends its whole connection. Unknown
 * tokens and another client's tokens are ignored (the answer is the same, so nothing can be probed).
 */
export async function revokeToken(deps: Deps, token: string, clientId: string | undefined): Promise<void> {
  const access = parseAccessToken(token);
  if (access) {
    const connection = await findConnection(deps, access.connectionId);
    if (connection && (clientId === undefined || connection.clientId === clientId)) {
      await removeAccessToken(deps, access.connectionId, access.tokenHash);
      await outlastVouches();
    }
    return;
  }
  const stored = await findSecret(deps, storedHash(token));
  if (!stored || stored.kind !== 'refresh' || (clientId !== undefined && stored.clientId !== clientId)) return;
  await endAccess(deps, stored.connectionId, 'revoked', 'refresh token revoked by the client');
}
