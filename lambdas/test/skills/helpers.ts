import type { ScriptedTurn } from '../support/scripted-model';

/** The shaping call that follows every run without a schema: the model's part of the default envelope. */
export const envelopeTurn = (summary: string): ScriptedTurn => ({ text: JSON.stringify({ result: 'ok', summary, follow_up: null }) });

/** The tool names the model was offered on one of its calls. */
export const offeredTools = (call: { tools?: readonly { name: string }[] } | undefined): string[] => (call?.tools ?? []).map((tool) => tool.name).sort();
