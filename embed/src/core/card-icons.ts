import { path, UI_ICONS, type IconNode } from './icons';
import type { IconName } from './markers';

// The cards' outline icons from lucide (ISC licence), in the chunk of the rich text that shows them (opening the
// panel does not need them).
const CARD_ICONS: Record<Exclude<IconName, keyof typeof UI_ICONS>, IconNode> = {
  calendar: [path('M8 2v3'), path('M16 2v3'), ['rect', { x: '3', y: '3', width: '18', height: '18', rx: '2' }], path('M3 9h18')],
  mail: [path('m22 7-8.991 5.727a2 2 0 0 1-2.009 0L2 7'), ['rect', { x: '2', y: '4', width: '20', height: '16', rx: '2' }]],
  cart: [
    path('m2.05 2.05 1.099-.028a1 1 0 0 1 1.008.815l2.69 14.347A1 1 0 0 0 7.83 18H18'),
    path('M4.563 5h16.435a1 1 0 0 1 .981 1.204l-1.026 6.226A2 2 0 0 1 18.962 14H6.25'),
    ['circle', { cx: '18', cy: '20', r: '2' }],
    ['circle', { cx: '8', cy: '20', r: '2' }],
  ],
  phone: [
    path(
      'M13.832 16.568a1 1 0 0 0 1.213-.303l.355-.465A2 2 0 0 1 17 15h3a2 2 0 0 1 2 2v3a2 2 0 0 1-2 2A18 18 0 0 1 2 4a2 2 0 0 1 2-2h3a2 2 0 0 1 2 2v3a2 2 0 0 1-.8 1.6l-.468.351a1 1 0 0 0-.292 1.233 14 14 0 0 0 6.392 6.384',
    ),
  ],
  chart: [path('M3 3v16a2 2 0 0 0 2 2h16'), path('M18 17V9'), path('M13 17V5'), path('M8 17v-3')],
  globe: [['circle', { cx: '12', cy: '12', r: '10' }], path('M12 2a14.5 14.5 0 0 0 0 20 14.5 14.5 0 0 0 0-20'), path('M2 12h20')],
  zap: [
    path(
      'M15.914 4a1.5 1.5 0 00-2.474-1.561l-9 9A1.5 1.5 0 005.5 14h4.002a.5.5 0 01.471.666L8.086 20a1.5 1.5 0 002.475 1.56l9-9A1.5 1.5 0 0018.5 10h-3.997a.5.5 0 01-.472-.667z',
    ),
  ],
  puzzle: [
    path(
      'M15.39 4.39a1 1 0 0 0 1.68-.474 2.5 2.5 0 1 1 3.014 3.015 1 1 0 0 0-.474 1.68l1.683 1.682a2.414 2.414 0 0 1 0 3.414L19.61 15.39a1 1 0 0 1-1.68-.474 2.5 2.5 0 1 0-3.014 3.015 1 1 0 0 1 .474 1.68l-1.683 1.682a2.414 2.414 0 0 1-3.414 0L8.61 19.61a1 1 0 0 0-1.68.474 2.5 2.5 0 1 1-3.014-3.015 1 1 0 0 0 .474-1.68l-1.683-1.682a2.414 2.414 0 0 1 0-3.414L4.39 8.61a1 1 0 0 1 1.68.474 2.5 2.5 0 1 0 3.014-3.015 1 1 0 0 1-.474-1.68l1.683-1.682a2.414 2.414 0 0 1 3.414 0z',
    ),
  ],
  file: [
    path('M6 22a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h8a2.4 2.4 0 0 1 1.704.706l3.588 3.588A2.4 2.4 0 0 1 20 8v12a2 2 0 0 1-2 2z'),
    path('M14 2v5a1 1 0 0 0 1 1h5'),
    path('M10 9H8'),
    path('M16 13H8'),
    path('M16 17H8'),
  ],
};

export const cardIcon = (name: IconName): IconNode =>
  name in CARD_ICONS ? CARD_ICONS[name as keyof typeof CARD_ICONS] : UI_ICONS[name as keyof typeof UI_ICONS];
