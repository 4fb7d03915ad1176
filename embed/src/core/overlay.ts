import type { UiActionRequest } from './event-bus';

export const POINTER_PHASES = [
  ['appear', 500],
  ['move', 600],
  ['click', 300],
  ['ripple', 500],
  ['fade', 400],
] as const;
export const HIGHLIGHT_MS = 2500;

export const overlayCss = `
.scw-pointer{position:fixed;left:0;top:0;width:44px;height:44px;pointer-events:none;color:#1e3a8a;z-index:2;
  filter:drop-shadow(0 4px 6px rgba(0,0,0,.35))}
.scw-pointer svg{width:44px;height:44px;fill:#fff;stroke:currentColor;stroke-width:1.6;stroke-linecap:round;stroke-linejoin:round}
.scw-ripple{position:fixed;left:0;top:0;width:40px;height:40px;margin:-20px 0 0 -20px;border-radius:50%;pointer-events:none;
  background:rgba(59,130,246,.45);z-index:1}
.scw-ring{position:fixed;pointer-events:none;border:3px solid #3b82f6;border-radius:10px;box-sizing:border-box;z-index:1}
`;

/** Target resolution of the spec: a CSS selector first, then an element whose data-chat-target equals the value. */
export function findTarget(target: string, doc: Document = document): Element | null {
  try {
    const bySelector = doc.querySelector(target);
    if (bySelector) return bySelector;
  } catch {
    // Not a valid selector: fall through to data-chat-target.
  }
  for (const element of doc.querySelectorAll('[data-chat-target]')) {
    if (element.getAttribute('data-chat-target') === target) return element;
  }
  return null;
}

const reducedMotion = () => matchMedia('(prefers-reduced-motion: reduce)').matches;
const wait = (duration: number) => new Promise((resolve) => setTimeout(resolve, duration));

function inViewport(rect: DOMRect): boolean {
  return rect.top >= 0 && rect.left >= 0 && rect.bottom <= innerHeight && rect.right <= innerWidth;
}

// The lucide pointer icon (ISC licence), kept with its only user: the widget chunk does not carry it.
const POINTER_PATHS = [
  'M22 14a8 8 0 0 1-8 8',
  'M18 11v-1a2 2 0 0 0-2-2a2 2 0 0 0-2 2',
  'M14 10V9a2 2 0 0 0-2-2a2 2 0 0 0-2 2v1',
  'M10 9.5V4a2 2 0 0 0-2-2a2 2 0 0 0-2 2v10',
  'M18 11a2 2 0 1 1 4 0v3a8 8 0 0 1-8 8h-2c-2.8 0-4.5-.86-5.99-2.34l-3.6-3.6a2 2 0 0 1 2.83-2.82L7 15',
];

function pointerSvg(): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  for (const d of POINTER_PATHS) {
    const path = document.createElementNS(ns, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}

async function scrollToCentre(element: Element, reduced: boolean): Promise<void> {
  element.scrollIntoView({ behavior: reduced ? 'auto' : 'smooth', block: 'center', inline: 'center' });
  if (!reduced) await wait(450);
}

// The fingertip of the pointer icon sits at about (9/24, 2/24) of its box; offset so the tip lands on the target.
const TIP_X = 16;
const TIP_Y = 4;

async function point(layer: ShadowRoot | HTMLElement, element: Element, reduced: boolean): Promise<void> {
  if (!inViewport(element.getBoundingClientRect())) await scrollToCentre(element, reduced);
  const rect = element.getBoundingClientRect();
  const to = `translate(${rect.left + rect.width / 2 - TIP_X}px,${rect.top + rect.height / 2 - TIP_Y}px)`;
  const from = `translate(${innerWidth / 2 - TIP_X}px,${innerHeight / 2 - TIP_Y}px)`;
  const hand = document.createElement('div');
  hand.className = 'scw-pointer';
  hand.append(pointerSvg());
  layer.append(hand);
  // With reduced motion the hand shows at the target without gliding, bouncing or rippling.
  const keyframes: Record<string, Keyframe[]> = reduced
    ? {
        appear: [
          { transform: `${to}`, opacity: 0 },
          { transform: `${to}`, opacity: 1 },
        ],
        move: [{ transform: to }, { transform: to }],
      }
    : {
        appear: [{ transform: `${from} scale(0)` }, { transform: `${from} scale(1.2)`, offset: 0.7 }, { transform: `${from} scale(1)` }],
        move: [{ transform: from }, { transform: to }],
      };
  const durations = new Map<string, number>(POINTER_PHASES.map(([phase, ms]) => [phase, reduced ? Math.min(ms, 150) : ms]));
  const run = (phase: string, target: Element, frames: Keyframe[], easing = 'ease') => {
    hand.dataset.phase = phase;
    return target.animate(frames, { duration: durations.get(phase) ?? 0, easing, fill: 'forwards' }).finished;
  };
  try {
    await run('appear', hand, keyframes.appear ?? [], 'cubic-bezier(.34,1.56,.64,1)');
    await run('move', hand, keyframes.move ?? [], 'cubic-bezier(.33,1,.68,1)');
    await run('click', hand, reduced ? [{ transform: to }] : [{ transform: to }, { transform: `${to} scale(.85) rotate(-12deg)` }, { transform: to }]);
    const ripple = document.createElement('div');
    ripple.className = 'scw-ripple';
    ripple.style.left = `${rect.left + rect.width / 2}px`;
    ripple.style.top = `${rect.top + rect.height / 2}px`;
    layer.append(ripple);
    await run(
      'ripple',
      ripple,
      reduced
        ? [{ opacity: 0 }]
        : [
            { transform: 'scale(0)', opacity: 0.8 },
            { transform: 'scale(2.5)', opacity: 0 },
          ],
    );
    ripple.remove();
    await run('fade', hand, [
      { transform: to, opacity: 1 },
      { transform: to, opacity: 0 },
    ]);
  } finally {
    hand.remove();
  }
}

async function highlight(layer: ShadowRoot | HTMLElement, element: Element, reduced: boolean): Promise<void> {
  if (!inViewport(element.getBoundingClientRect())) await scrollToCentre(element, reduced);
  const ring = document.createElement('div');
  ring.className = 'scw-ring';
  ring.dataset.state = 'on';
  layer.append(ring);
  let frame = 0;
  // Follow the target while the page scrolls or reflows.
  const place = () => {
    const rect = element.getBoundingClientRect();
    ring.style.left = `${rect.left - 6}px`;
    ring.style.top = `${rect.top - 6}px`;
    ring.style.width = `${rect.width + 12}px`;
    ring.style.height = `${rect.height + 12}px`;
    frame = requestAnimationFrame(place);
  };
  place();
  const pulse = reduced
    ? null
    : ring.animate([{ boxShadow: '0 0 0 0 rgba(59,130,246,.55)' }, { boxShadow: '0 0 0 12px rgba(59,130,246,0)' }], { duration: 900, iterations: Infinity });
  try {
    await wait(HIGHLIGHT_MS);
    ring.dataset.state = 'fading';
    await ring.animate([{ opacity: 1 }, { opacity: 0 }], { duration: reduced ? 1 : 300, fill: 'forwards' }).finished;
  } finally {
    pulse?.cancel();
    cancelAnimationFrame(frame);
    ring.remove();
  }
}

/**
 * Run one UI action of the spec (pointer, highlight, scroll) in `layer`, a container whose root has overlayCss.
 * Resolves false (with a console warning) when the target does not resolve or the action is unknown.
 */
export async function runUiAction(layer: ShadowRoot | HTMLElement, request: UiActionRequest): Promise<boolean> {
  const element = typeof request.target === 'string' ? findTarget(request.target) : null;
  if (!element) {
    console.warn('[service-chat] uiAction target not found:', request.target);
    return false;
  }
  const reduced = reducedMotion();
  switch (request.action) {
    case 'pointer':
      await point(layer, element, reduced);
      return true;
    case 'highlight':
      await highlight(layer, element, reduced);
      return true;
    case 'scroll':
      await scrollToCentre(element, reduced);
      return true;
    default:
      console.warn('[service-chat] unknown uiAction:', String(request.action));
      return false;
  }
}
