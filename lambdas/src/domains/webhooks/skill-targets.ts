import { mintTurnToken, TURN_TOKEN_HEADER } from '@service/skill-sdk';
import type { Deps } from '../../infra/deps';
import { listAgents } from '../agents/agents';
import { findRegisteredSkill, listRegisteredSkills, type RegisteredSkill } from '../skills/registry';
import { sameTickReads } from './same-tick-reads';

/**
 * Inbound events of skills ride on the webhook deliveries: a skill is a delivery target `skill#<workspace>#<code>`
 * beside the workspace's subscriptions, with the same durable queue, retries and attempt log.
 */
const PREFIX = 'skill#';

export const skillTargetId = (workspaceId: string, code: string) => `${PREFIX}${workspaceId}#${code}`;
export const isSkillTarget = (targetId: string) => targetId.startsWith(PREFIX);
const codeOf = (targetId: string) => targetId.slice(targetId.lastIndexOf('#') + 1);

/** The workspace's registered skills, read once for all the events emitted in one turn of the event loop. */
const registeredSkillsOf = sameTickReads(listRegisteredSkills);

/** Registered skills installed on an agent of the workspace (or named in `also`) whose manifest declares the event. */
export async function skillsListening(deps: Deps, workspaceId: string, event: string, also?: string): Promise<RegisteredSkill[]> {
  const declaring = (await registeredSkillsOf(deps, workspaceId)).filter((skill) => skill.eventsUrl && skill.events?.includes(event));
  // Most workspaces have no skill that takes this event: one read, and the agents are not read at all.
  if (declaring.length === 0) return [];
  const installed = new Set((await listAgents(deps, workspaceId)).flatMap((agent) => agent.skills));
  if (also) installed.add(also);
  return declaring.filter((skill) => installed.has(skill.code));
}

export const findSkillTarget = (deps: Deps, workspaceId: string, targetId: string) => findRegisteredSkill(deps, workspaceId, codeOf(targetId));

/** The headers of one attempt: the skill's bearer and a fresh turn token for the workspace (120 s, for this skill). */
export async function skillEventHeaders(workspaceId: string, skill: RegisteredSkill): Promise<Record<string, string>> {
  const turnToken = await mintTurnToken(
    { accountId: workspaceId, companyId: workspaceId, skill: skill.code, roles: ['admin'] },
    { secret: skill.turnTokenSecret },
  );
  return {
    ...(skill.bearer ? { authorization: `Bearer ${skill.bearer}` } : {}),
    [TURN_TOKEN_HEADER]: turnToken,
    'x-service-language': 'en',
  };
}
