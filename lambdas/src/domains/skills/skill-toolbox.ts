import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { JSONSchema7 } from 'ai';
import { LRUCache } from 'lru-cache';
import { TURN_TOKEN_HEADER } from '@service/skill-sdk';
import type { Deps } from '../../infra/deps';
import type { StoredAgent } from '../agents/agents';
import type { CatalogSkill } from './catalog';
import { findSkill } from './catalog';
import { accessTo, listGrants, mayUse, type Grant } from './grants';
import { skillHostOf } from './host';
import { oauthMissing } from './oauth';
import { findRegisteredSkill } from './registry';
import { mintTurn, type TurnCaller } from './turns';
import type { AgentTool } from './agent-tool';
import { openSkill, type SkillLink, type SkillTarget } from './skill-client';
import { logger } from '../../infra/logger';

/** Who a run acts as, toward skills. */
export interface SkillCaller {
  agent: StoredAgent;
  runId: string;
  roles: readonly string[];
  /** Conversation language, sent as X-Service-Language. */
  language: string;
  /** A widget visitor with a valid signed token: grants with `requires_verified_visitor` hold only then. */
  verifiedVisitor?: boolean;
}

/** The tools a run may offer the model, and the skill sessions to close when the run ends. */
export interface Toolbox {
  tools: AgentTool[];
  close(): Promise<void>;
}

interface InstalledSkill {
  skill: CatalogSkill;
  target: SkillTarget;
  turnTokenSecret: string;
  /** The platform's own skills call its serviceApi routes, which need to know the turn. */
  builtin: boolean;
}

/** Tool lists change rarely: each skill is listed at most once per this period per process, not on every call. */
const TOOL_LIST_TTL_MS = 30_000;
/** A turn token is renewed when less than this remains of its 120 s. */
const TOKEN_RENEW_MARGIN_S = 30;

/** Skill -> its tool list being or having been read; bounded, so a warm runner never grows without limit. */
const toolLists = new LRUCache<string, Promise<Tool[]>>({ max: 1_000, ttl: TOOL_LIST_TTL_MS });

function cachedToolList(target: SkillTarget, language: string): Promise<Tool[]> {
  const key = `${target.mcpUrl}\n${target.bearer ?? ''}`;
  const hit = toolLists.get(key);
  if (hit) return hit;
  const tools = openSkill(target).then(async (link) => {
    try {
      return await link.listTools({ 'x-service-language': language });
    } finally {
      await link.release();
    }
  });
  toolLists.set(key, tools);
  tools.catch(() => toolLists.delete(key));
  return tools;
}

async function resolveInstalled(deps: Deps, agent: StoredAgent, code: string): Promise<InstalledSkill | undefined> {
  const skill = await findSkill(deps, agent.workspaceId, code);
  if (!skill) return undefined;
  if (skill.source === 'builtin') {
    const host = skillHostOf(deps);
    const endpoint = host.builtins[code];
    if (!endpoint) {
      logger.warn('built-in skill has no endpoint configured; its tools are not offered', { skill: code });
      return undefined;
    }
    return { skill, target: { mcpUrl: endpoint.mcpUrl, bearer: endpoint.bearer }, turnTokenSecret: host.turnTokenSecret, builtin: true };
  }
  const registered = await findRegisteredSkill(deps, agent.workspaceId, code);
  if (!registered) return undefined;
  return {
    skill,
    target: { mcpUrl: registered.mcpUrl, guard: { allowLocal: deps.config.webhookAllowLocal }, ...(registered.bearer ? { bearer: registered.bearer } : {}) },
    turnTokenSecret: registered.turnTokenSecret,
    builtin: false,
  };
}

/** One run's use of one skill: its link opened on the first call, each call with the run's turn token (renewed as needed). */
class SkillSession {
  private link: Promise<SkillLink> | undefined;
  private token: Promise<{ token: string; expiresAtEpoch: number }> | undefined;
  private tokenExpiresAtEpoch: number | undefined;

  constructor(
    private readonly deps: Deps,
    private readonly installed: InstalledSkill,
    private readonly caller: TurnCaller,
    private readonly language: string,
  ) {}

  /** The run's turn token for this skill: one mint shared by concurrent calls, a new one when it nears its expiry or failed. */
  private turnToken(): Promise<string> {
    const expiring = this.tokenExpiresAtEpoch !== undefined && this.tokenExpiresAtEpoch - Date.now() / 1000 < TOKEN_RENEW_MARGIN_S;
    if (!this.token || expiring) {
      const minting = mintTurn(this.deps, this.installed.turnTokenSecret, this.installed.skill.code, this.caller, this.installed.builtin);
      this.token = minting;
      this.tokenExpiresAtEpoch = undefined;
      minting.then(
        (minted) => this.token === minting && (this.tokenExpiresAtEpoch = minted.expiresAtEpoch),
        () => this.token === minting && (this.token = undefined),
      );
    }
    return this.token.then((minted) => minted.token);
  }

  private openLink(): Promise<SkillLink> {
    this.link ??= openSkill(this.installed.target);
    this.link.catch(() => (this.link = undefined));
    return this.link;
  }

  /** Starts what a call needs besides the call itself (the link, the turn token), e.g. while its action is recorded. */
  prepare(): void {
    this.openLink().catch(() => undefined);
    this.turnToken().catch(() => undefined);
  }

  async call(mcpName: string, input: Record<string, unknown>): Promise<CallToolResult> {
    const [link, token] = await Promise.all([this.openLink(), this.turnToken()]);
    return link.callTool(mcpName, input, { 'x-service-language': this.language, [TURN_TOKEN_HEADER]: token });
  }

  async close(): Promise<void> {
    const link = await this.link?.catch(() => undefined);
    await link?.release();
  }
}

const textOf = (result: CallToolResult) =>
  result.content
    .filter((part): part is { type: 'text'; text: string } => part.type === 'text')
    .map((part) => part.text)
    .join('\n');

/** A failed call (isError) becomes an error for the run's record; a success gives the model the structured result. */
function outcomeOf(result: CallToolResult): unknown {
  if (result.isError) {
    const error = (result.structuredContent as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new Error(error?.code ? `${error.code}: ${error.message ?? textOf(result)}` : textOf(result) || 'The skill reported an error');
  }
  return result.structuredContent ?? { text: textOf(result) };
}

/**
 * The tools of the agent's installed skills that the caller's roles may use, listed over MCP (cached briefly).
 * Deny by default: an ungranted tool is not offered to the model at all. A skill that cannot be listed is left
 * out of the run with a warning, so one broken skill does not stop the agent. `grants`: the workspace's, when the
 * caller started reading them beside its own reads.
 */
export async function skillToolbox(deps: Deps, caller: SkillCaller, grantsRead?: Promise<Grant[]>): Promise<Toolbox> {
  const { agent } = caller;
  // One read per run, never cached: a grant revoked a moment ago must already keep its tool from this run.
  const grants = await (grantsRead ?? listGrants(deps, agent.workspaceId));
  const sessions: SkillSession[] = [];
  const perSkill = await Promise.all(
    agent.skills.map(async (code): Promise<AgentTool[]> => {
      const installed = await resolveInstalled(deps, agent, code);
      if (!installed) return [];
      const access = accessTo(grants, code, caller.roles, { verifiedVisitor: caller.verifiedVisitor === true });
      const usable = installed.skill.tools.filter((tool) => mayUse(tool, access, caller.roles));
      if (usable.length === 0) return [];
      let listed: Tool[];
      try {
        listed = await cachedToolList(installed.target, caller.language);
      } catch (error) {
        logger.warn('skill could not be listed; its tools are not offered', { skill: code, workspaceId: agent.workspaceId, runId: caller.runId, error });
        return [];
      }
      const oauth = await oauthMissing(deps, agent.workspaceId, installed.skill);
      const session = new SkillSession(
        deps,
        installed,
        { workspaceId: agent.workspaceId, agentId: agent.id, runId: caller.runId, roles: caller.roles, capabilities: access.granted },
        caller.language,
      );
      sessions.push(session);
      return usable.flatMap((tool) => {
        const live = listed.find((candidate) => candidate.name === tool.mcpName);
        if (!live) return [];
        return [
          {
            name: tool.name,
            capability: tool.capability,
            description: live.description ?? tool.description,
            effect: live.annotations?.readOnlyHint ? 'read' : 'act',
            inputSchema: live.inputSchema as JSONSchema7,
            prepare: () => session.prepare(),
            execute: async (input) => {
              if (oauth) throw new Error(`${oauth.code}: ${oauth.message}`);
              return outcomeOf(await session.call(tool.mcpName, input));
            },
          } satisfies AgentTool,
        ];
      });
    }),
  );
  return {
    tools: perSkill.flat(),
    close: async () => {
      await Promise.all(sessions.map((session) => session.close()));
    },
  };
}
