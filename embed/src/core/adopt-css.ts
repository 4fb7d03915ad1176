/** Constructable stylesheets: no <style> element, so a strict CSP without 'unsafe-inline' allows them. */
export function adoptCss(root: ShadowRoot | Document, css: string): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}
