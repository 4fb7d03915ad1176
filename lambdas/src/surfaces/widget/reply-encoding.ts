import { UI_MESSAGE_STREAM_HEADERS } from 'ai';
import type { ChatStreamEvents } from '@service/shared/widget-protocol';
import { SSE_HEADERS, sseFrame } from '../../infra/http/sse';

/** Writes the events of one reply in a wire format: the widget's own SSE events, or the AI SDK's UI message stream. */
export interface ReplyEncoding {
  headers: Record<string, string>;
  encode<N extends keyof ChatStreamEvents>(name: N, data: ChatStreamEvents[N]): string;
}

const sse = (data: unknown) => sseFrame({ data });

/** The widget's protocol: `event: <name>` and `data: <json>` per event (shared/src/widget-protocol.ts). */
export function widgetEncoding(): ReplyEncoding {
  return {
    headers: { ...SSE_HEADERS },
    encode: (name, data) => sseFrame({ name, data }),
  };
}

/**
 * The AI SDK's UI message stream protocol (what `useChat` reads): `start`, the text as `text-start`/`text-delta`/
 * `text-end`, navigations, UI actions and actions to confirm as the data parts `data-navigate`, `data-uiAction` and
 * `data-confirm`, then `finish` (or `error`) and `[DONE]`. Markers stay in the text, as the widget receives them.
 */
export function uiMessageEncoding(): ReplyEncoding {
  let started = false;
  let textOpen = false;
  const TEXT_ID = 'text-1';
  const open = () => (started ? '' : ((started = true), sse({ type: 'start' })));
  const closeText = () => (textOpen ? ((textOpen = false), sse({ type: 'text-end', id: TEXT_ID })) : '');
  return {
    headers: { ...UI_MESSAGE_STREAM_HEADERS },
    encode(name, data) {
      const event = data as ChatStreamEvents[keyof ChatStreamEvents];
      switch (name) {
        case 'delta': {
          const begin = textOpen ? '' : ((textOpen = true), sse({ type: 'text-start', id: TEXT_ID }));
          return open() + begin + sse({ type: 'text-delta', id: TEXT_ID, delta: (event as ChatStreamEvents['delta']).text });
        }
        case 'navigate':
          return open() + sse({ type: 'data-navigate', data: event });
        case 'uiAction':
          return open() + sse({ type: 'data-uiAction', data: event });
        case 'confirm':
          return open() + sse({ type: 'data-confirm', data: event });
        case 'done':
          return open() + closeText() + sse({ type: 'finish', messageMetadata: event }) + 'data: [DONE]\n\n';
        default:
          return open() + closeText() + sse({ type: 'error', errorText: (event as ChatStreamEvents['error']).message }) + 'data: [DONE]\n\n';
      }
    },
  };
}
