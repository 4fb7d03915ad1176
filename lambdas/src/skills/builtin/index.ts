import type { AgentTool } from '../../runtime/agent-tool';
import { calendarTools } from './calendar';
import { contactTools } from './contacts';
import { emailTools } from './email';
import { taskTools } from './tasks';

/** The tools of each built-in skill, by skill code. */
export const BUILTIN_TOOLS: Record<string, AgentTool[]> = {
  contacts: contactTools,
  calendar: calendarTools,
  tasks: taskTools,
  email: emailTools,
};
