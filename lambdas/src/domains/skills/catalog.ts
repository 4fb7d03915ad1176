import type { Skill } from '@service/skill-sdk';
import type { Deps } from '../../infra/deps';
import { BUILTIN_INFO, BUILTIN_SKILLS } from './builtin';
import { toolOf, type CatalogTool } from './catalog-tool';
import { findRegisteredSkill, listRegisteredSkills, type RegisteredSkill } from './registry';

/**
 * The skills domain: the catalog of built-in and registered skills, installations, roles and capability grants, turn
 * tokens, the MCP client and the toolbox a run or a widget reply gets (skill-toolbox.ts), and the built-in skills (builtin/).
 */
export interface CatalogSkill {
  code: string;
  name: string;
  description: string;
  version: string;
  source: 'builtin' | 'registered';
  tools: CatalogTool[];
  /** The OAuth provider whose connection the skill needs before it can be installed or used. */
  oauthProvider?: string;
}

function builtinEntry(skill: Skill): CatalogSkill {
  const info = BUILTIN_INFO[skill.code] ?? { name: skill.code, description: '' };
  return {
    code: skill.code,
    ...info,
    version: skill.version,
    source: 'builtin',
    tools: [...skill.tools.values()].map((tool) => toolOf(skill.code, tool.action, tool.name, tool.description, tool.roles)),
  };
}

const BUILTIN_CATALOG: readonly CatalogSkill[] = [...BUILTIN_SKILLS.values()].map(builtinEntry);

const registeredEntry = ({ code, name, description, version, tools, oauthProvider }: RegisteredSkill): CatalogSkill => ({
  code,
  name,
  description,
  version,
  source: 'registered',
  tools,
  ...(oauthProvider ? { oauthProvider } : {}),
});

/** Every skill the workspace can install: the built-in ones, then those it registered. */
export async function listSkills(deps: Deps, workspaceId: string): Promise<CatalogSkill[]> {
  return [...BUILTIN_CATALOG, ...(await listRegisteredSkills(deps, workspaceId)).map(registeredEntry)];
}

export async function findSkill(deps: Deps, workspaceId: string, code: string): Promise<CatalogSkill | undefined> {
  const builtin = BUILTIN_CATALOG.find((skill) => skill.code === code);
  if (builtin) return builtin;
  const registered = await findRegisteredSkill(deps, workspaceId, code);
  return registered && registeredEntry(registered);
}

export const toSkillResponse = (skill: CatalogSkill) => ({
  code: skill.code,
  name: skill.name,
  description: skill.description,
  version: skill.version,
  source: skill.source,
  tools: skill.tools.map((tool) => ({ name: tool.name, capability: tool.capability, description: tool.description })),
});
