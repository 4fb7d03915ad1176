import type { CreateElement } from './create-element';

export type IconNode = [tag: string, attrs: Record<string, string>][];

/** One <path> of an icon. */
export const path = (d: string): [string, Record<string, string>] => ['path', { d }];

/** The chat bubble of the FAB (the loader paints it too, before the widget loads). */
export const CHAT_PATH = 'M2.992 16.342a2 2 0 0 1 .094 1.167l-1.065 3.29a1 1 0 0 0 1.236 1.168l3.413-.998a2 2 0 0 1 1.099.092 10 10 0 1 0-4.777-4.719';

// Outline icons from lucide (ISC licence), copied as data so the widget chunk does not need the icon library. These
// are the widget's own controls; the cards' icons are in card-icons.ts, with the rich text that alone shows them.
export const UI_ICONS = {
  bot: [
    path('M12 8V4H8'),
    ['rect', { width: '16', height: '12', x: '4', y: '8', rx: '2' }],
    path('M2 14h2'),
    path('M20 14h2'),
    path('M15 13v2'),
    path('M9 13v2'),
  ],
  close: [path('M18 6 6 18'), path('m6 6 12 12')],
  send: [
    path('M14.536 21.686a.5.5 0 0 0 .937-.024l6.5-19a.496.496 0 0 0-.635-.635l-19 6.5a.5.5 0 0 0-.024.937l7.93 3.18a2 2 0 0 1 1.112 1.11z'),
    path('m21.854 2.147-10.94 10.939'),
  ],
  chat: [path(CHAT_PATH)],
  stop: [['rect', { x: '6', y: '6', width: '12', height: '12', rx: '2' }]],
  trash: [
    path('M10 11v6'),
    path('M14 11v6'),
    path('M19 6v14a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V6'),
    path('M3 6h18'),
    path('M8 6V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2'),
  ],
} satisfies Record<string, IconNode>;

export type UiIconName = keyof typeof UI_ICONS;

/** An icon as an <svg> of `shapes`, built with Preact's or React's createElement. */
export function renderShapes<Node>(h: CreateElement<Node>, shapes: IconNode, key?: string | number): Node {
  const children = shapes.map(([tag, attrs], index) => h(tag, { ...attrs, key: index }));
  return h('svg', { key, className: 'scw-icon', viewBox: '0 0 24 24', 'aria-hidden': 'true', focusable: 'false' }, ...children);
}

export const renderIcon = <Node>(h: CreateElement<Node>, name: UiIconName): Node => renderShapes(h, UI_ICONS[name]);
