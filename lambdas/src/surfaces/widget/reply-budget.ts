import { CHAT_LIMITS } from '@service/shared/widget-protocol';

/**
 * What one streamed reply may do: the model's output is untrusted, so its text, navigations and UI actions are
 * counted and cut at the shared limits (a longer reply could not be sent back as history).
 */
export function createReplyBudget(
  limits: { chars: number; navigations: number; uiActions: number } = {
    chars: CHAT_LIMITS.messageChars,
    navigations: CHAT_LIMITS.navigationsPerReply,
    uiActions: CHAT_LIMITS.uiActionsPerReply,
  },
) {
  let chars = 0;
  let navigations = 0;
  let uiActions = 0;
  return {
    /** The part of `text` that still fits; empty once the reply is full. */
    text(text: string): string {
      const piece = text.slice(0, Math.max(0, limits.chars - chars));
      chars += piece.length;
      return piece;
    },
    get full(): boolean {
      return chars >= limits.chars;
    },
    navigation: (): boolean => ++navigations <= limits.navigations,
    uiAction: (): boolean => ++uiActions <= limits.uiActions,
  };
}
