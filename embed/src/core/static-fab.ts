import { CHAT_PATH } from './icons';
import { adoptCss } from './adopt-css';

// The loader's own FAB: painted at once (after showDelay) with a few bytes of CSS, so the visitor can press it while
// the widget code is still on its way; the widget replaces it when it mounts.
const css = `:host{display:block!important}.scw-static{position:fixed;right:20px;bottom:20px;width:60px;height:60px;border:0;
border-radius:50%;display:grid;place-items:center;cursor:pointer;color:#fff;background:linear-gradient(135deg,#3b82f6,#4f46e5)}
.scw-static svg{width:28px;height:28px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}`;

const SVG = 'http://www.w3.org/2000/svg';

/** Elements, not markup: nothing here needs a Trusted Types policy. */
export function paintStaticFab(shadow: ShadowRoot, onPress: () => void): HTMLButtonElement {
  adoptCss(shadow, css);
  const fab = document.createElement('button');
  fab.type = 'button';
  fab.className = 'scw-fab scw-static';
  fab.setAttribute('aria-label', document.documentElement.lang.startsWith('tr') ? 'Sohbeti aç' : 'Open chat');
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', CHAT_PATH);
  svg.append(path);
  fab.append(svg);
  fab.addEventListener('click', onPress, { once: true });
  shadow.append(fab);
  return fab;
}
