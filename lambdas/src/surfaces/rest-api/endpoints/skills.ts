import { ApiError } from '@service/shared';
import { getAgent, setAgentSkills } from '../../../domains/agents/agents';
import { findSkill, listSkills, toSkillResponse } from '../../../domains/skills/catalog';
import { oauthMissing } from '../../../domains/skills/oauth';
import { emitEvent } from '../../../domains/webhooks/emit';
import type { EndpointHandlers } from './types';

export const skillEndpoints: EndpointHandlers<'skillsList' | 'skillsInstall' | 'skillsUninstall'> = {
  skillsList: async ({ deps, workspace }) => ({ data: { skills: (await listSkills(deps, workspace.id)).map(toSkillResponse) } }),

  skillsInstall: async ({ deps, workspace, body }) => {
    const skill = await findSkill(deps, workspace.id, body.skill_code);
    if (!skill) throw new ApiError('NOT_FOUND', `No skill ${body.skill_code} in the catalog; see skills/list`, { field: 'skill_code' });
    const agent = await getAgent(deps, workspace.id, body.agent_id);
    const oauth = await oauthMissing(deps, workspace.id, skill);
    if (oauth) throw oauth;
    if (!agent.skills.includes(body.skill_code)) {
      await setAgentSkills(deps, agent, [...agent.skills, body.skill_code]);
      await emitEvent(deps, workspace.id, 'skill.installed', { agent_id: agent.id, skill_code: body.skill_code });
    }
    return { data: { agent_id: agent.id, skill_code: body.skill_code, installed: true }, msg: `${body.skill_code} installed on ${agent.name}` };
  },

  skillsUninstall: async ({ deps, workspace, body }) => {
    const agent = await getAgent(deps, workspace.id, body.agent_id);
    if (!agent.skills.includes(body.skill_code)) throw new ApiError('NOT_FOUND', `${agent.name} has no skill ${body.skill_code}`, { field: 'skill_code' });
    await setAgentSkills(
      deps,
      agent,
      agent.skills.filter((code) => code !== body.skill_code),
    );
    await emitEvent(deps, workspace.id, 'skill.uninstalled', { agent_id: agent.id, skill_code: body.skill_code }, { also: body.skill_code });
    return { data: { agent_id: agent.id, skill_code: body.skill_code, installed: false }, msg: `${body.skill_code} removed from ${agent.name}` };
  },
};
