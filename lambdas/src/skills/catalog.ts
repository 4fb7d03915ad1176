/** The built-in skills every workspace can install. Each tool's capability is `code.action`; the model sees `code__action`. */
export interface CatalogSkill {
  code: string;
  name: string;
  description: string;
  version: string;
  tools: { action: string; description: string }[];
}

export const BUILTIN_SKILLS: readonly CatalogSkill[] = [
  {
    code: 'contacts',
    name: 'Contacts',
    description: 'Create and look up contacts of the workspace',
    version: '1.0.0',
    tools: [
      { action: 'create', description: 'Create a contact with a name and optional e-mail, phone and company' },
      { action: 'search', description: 'Find contacts by name or e-mail' },
    ],
  },
  {
    code: 'calendar',
    name: 'Calendar',
    description: 'Book and list calendar events',
    version: '1.0.0',
    tools: [
      { action: 'create_event', description: 'Book a calendar event with a title, start, end and attendees' },
      { action: 'list_events', description: 'List upcoming calendar events' },
    ],
  },
  {
    code: 'tasks',
    name: 'Tasks',
    description: 'Create and list tasks',
    version: '1.0.0',
    tools: [
      { action: 'create', description: 'Create a task with a title and an optional due date' },
      { action: 'list', description: 'List open tasks' },
    ],
  },
  {
    code: 'email',
    name: 'E-mail',
    description: "Send e-mail from the agent's own address",
    version: '1.0.0',
    tools: [{ action: 'send', description: 'Send an e-mail to a recipient with a subject and a body' }],
  },
];

export const findCatalogSkill = (code: string) => BUILTIN_SKILLS.find((skill) => skill.code === code);

export const toSkillResponse = (skill: CatalogSkill) => ({
  code: skill.code,
  name: skill.name,
  description: skill.description,
  version: skill.version,
  source: 'builtin' as const,
  tools: skill.tools.map((tool) => ({ name: `${skill.code}__${tool.action}`, capability: `${skill.code}.${tool.action}`, description: tool.description })),
});
