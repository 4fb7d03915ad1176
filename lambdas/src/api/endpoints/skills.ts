import { ApiError } from '@service/shared';
import { getAgent, setAgentSkills } from '../../domain/agents';
import { BUILTIN_SKILLS, findCatalogSkill, toSkillResponse } from '../../skills/catalog';
import type { EndpointHandlers } from './types';

export const skillEndpoints: EndpointHandlers<'skillsList' | 'skillsInstall' | 'skillsUninstall'> = {
  skillsList: async () => ({ data: { skills: BUILTIN_SKILLS.map(toSkillResponse) } }),

  skillsInstall: async ({ deps, workspace, body }) => {
    if (!findCatalogSkill(body.skill_code)) throw new ApiError('NOT_FOUND', `No skill ${body.skill_code} in the catalog; see skills/list`, { field: 'skill_code' });
    const agent = await getAgent(deps, workspace.id, body.agent_id);
    if (!agent.skills.includes(body.skill_code)) await setAgentSkills(deps, agent, [...agent.skills, body.skill_code]);
    return { data: { agent_id: agent.id, skill_code: body.skill_code, installed: true }, msg: `${body.skill_code} installed on ${agent.name}` };
  },

  skillsUninstall: async ({ deps, workspace, body }) => {
    const agent = await getAgent(deps, workspace.id, body.agent_id);
    if (!agent.skills.includes(body.skill_code)) throw new ApiError('NOT_FOUND', `${agent.name} has no skill ${body.skill_code}`, { field: 'skill_code' });
    await setAgentSkills(deps, agent, agent.skills.filter((code) => code !== body.skill_code));
    return { data: { agent_id: agent.id, skill_code: body.skill_code, installed: false }, msg: `${body.skill_code} removed from ${agent.name}` };
  },
};
