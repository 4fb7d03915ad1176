/**
 * Puts the widget's host element where the page's layout cannot move it: in the top layer as a manual popover
 * (fixed to the viewport even under a transformed <body>, above every z-index), else as the last child of <html>.
 * Called again after a single-page app removed it.
 */
export function pinHost(host: HTMLElement): void {
  if (!host.isConnected) document.documentElement.append(host);
  if (typeof host.showPopover !== 'function') return;
  host.popover = 'manual';
  if (!host.matches(':popover-open')) host.showPopover();
}
