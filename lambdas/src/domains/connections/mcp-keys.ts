import { DomainError, MCP_KEY_PREFIX, OAuthRefusal, randomBase62, type McpKeyScope } from '@service/shared';
import { listAgents } from '../agents/agents';
import type { Deps } from '../../infra/deps';
import { outlastVouches, vouchedCheck } from '../../infra/cache/vouching';
import { storedHash } from '../../infra/secrets/stored-hash';
import { CALLS_LIMIT_MAX } from './connections';
import { findMcpKey, markMcpKeyRevoked, mcpKeysOfWorkspace, putNewMcpKey, type StoredMcpKey } from './mcp-key-repository';
import { callUse, recentCalls } from './connection-call-repository';

export type { StoredMcpKey } from './mcp-key-repository';

/**
 * MCP keys: restricted workspace keys for headless agents (CI, a server-side assistant, a script), sent as the bearer
 * on /mcp. Made like an API key (40 base62 characters behind a prefix, only the hash kept, shown once), with the
 * permissions of the consent page and optionally some agents; their calls are kept as a connection's are.
 */
const MCP_KEY_PATTERN = /^mcp_live_[0-9A-Za-z]{40}$/;

/** A key id; with the Idempotency-Key's seed, a retried create names the key its first attempt made. */
export const newMcpKeyId = (seed?: string): string => `mck_${randomBase62(20, seed)}`;

export const isMcpKey = (token: string): boolean => token.startsWith(MCP_KEY_PREFIX);

export interface NewMcpKey {
  id: string;
  name: string;
  scopes: McpKeyScope[];
  /** null: every agent of the workspace. */
  agentIds: string[] | null;
  /** The e-mail of the person making it, or "API key". */
  createdBy: string;
  createdAt: Date;
}

/** Stores a key by its hash only; the secret is returned to be shown once. The agents must be the workspace's. */
export async function createMcpKey(deps: Deps, workspaceId: string, input: NewMcpKey): Promise<{ key: StoredMcpKey; secret: string }> {
  if (input.agentIds) {
    const agents = new Set((await listAgents(deps, workspaceId)).map((agent) => agent.id));
    const foreign = input.agentIds.find((agentId) => !agents.has(agentId));
    if (foreign) throw new DomainError('AGENT_NOT_FOUND', `No agent ${foreign} in this workspace`, { field: 'agent_ids' });
  }
  const secret = `${MCP_KEY_PREFIX}${randomBase62(40)}`;
  const key: StoredMcpKey = {
    keyHash: storedHash(secret),
    id: input.id,
    workspaceId,
    name: input.name,
    prefix: secret.slice(0, MCP_KEY_PREFIX.length + 4),
    last4: secret.slice(-4),
    createdAt: input.createdAt.toISOString(),
    scopes: input.scopes,
    agentIds: input.agentIds,
    createdBy: input.createdBy,
  };
  await putNewMcpKey(deps, key);
  return { key, secret };
}

export type ListedMcpKey = StoredMcpKey & { calls: number };

/** A key with its number of calls and its last use, both read from its recent calls. */
async function withUse(deps: Deps, key: StoredMcpKey): Promise<ListedMcpKey> {
  const { calls, lastUsedAt } = await callUse(deps, key.id);
  return { ...key, calls, ...(lastUsedAt ? { lastUsedAt } : {}) };
}

/** The workspace's keys, newest first, revoked ones included, with their use. */
export async function listMcpKeys(deps: Deps, workspaceId: string): Promise<ListedMcpKey[]> {
  return Promise.all((await mcpKeysOfWorkspace(deps, workspaceId)).map((key) => withUse(deps, key)));
}

const keyOfWorkspace = async (deps: Deps, workspaceId: string, keyId: string): Promise<StoredMcpKey | undefined> =>
  (await mcpKeysOfWorkspace(deps, workspaceId)).find((candidate) => candidate.id === keyId);

async function existingKey(deps: Deps, workspaceId: string, keyId: string): Promise<StoredMcpKey> {
  const key = await keyOfWorkspace(deps, workspaceId, keyId);
  if (!key) throw new DomainError('NOT_FOUND', `No MCP key ${keyId} in this workspace`, { field: 'key_id' });
  return key;
}

/** The key a retried create's first attempt stored under this id, if it got that far. */
export async function earlierMcpKey(deps: Deps, workspaceId: string, keyId: string): Promise<ListedMcpKey | undefined> {
  const key = await keyOfWorkspace(deps, workspaceId, keyId);
  return key && withUse(deps, key);
}

export async function callsOfMcpKey(deps: Deps, workspaceId: string, keyId: string, limit: number) {
  await existingKey(deps, workspaceId, keyId);
  return recentCalls(deps, keyId, Math.min(limit, CALLS_LIMIT_MAX));
}

/** Revokes a key: once this answers, no container acts on a check of it any more, so its next request fails. */
export async function revokeMcpKey(deps: Deps, workspaceId: string, keyId: string): Promise<ListedMcpKey> {
  const key = await existingKey(deps, workspaceId, keyId);
  // Lost to a concurrent revocation: the consistent read of the key sees when that one revoked it.
  const revoked = key.revokedAt
    ? key
    : ((await markMcpKeyRevoked(deps, key.keyHash, workspaceId, deps.now().toISOString())) ?? (await findMcpKey(deps, key.keyHash)) ?? key);
  await outlastVouches();
  return withUse(deps, revoked);
}

/**
 * The live key behind a bearer on /mcp. A container acts on a check for VOUCH_MS (a second) without reading again;
 * revocation outlasts that before it answers.
 */
export async function verifyMcpKey(deps: Deps, secret: string): Promise<StoredMcpKey> {
  if (!MCP_KEY_PATTERN.test(secret)) throw new OAuthRefusal('invalid_token', 'Unknown MCP key');
  const keyHash = storedHash(secret);
  return vouchedCheck(deps, `mcp-key:${keyHash}`, async () => {
    const key = await findMcpKey(deps, keyHash);
    if (!key) throw new OAuthRefusal('invalid_token', 'Unknown MCP key');
    if (key.revokedAt) throw new OAuthRefusal('invalid_token', 'The MCP key was revoked');
    return key;
  });
}
