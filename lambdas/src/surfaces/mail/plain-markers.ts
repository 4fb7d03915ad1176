/**
 * A mail has no widget: the markers a model or a platform phrase writes for it (`[Page:label|/path]`,
 * `[Link:label|https://…]`, `[Action:label|…]`, `[Button:…]`) become plain text, a web address after its label, an
 * action (the widget's buttons) nothing. Citations by number and their Sources list stay as the plain door wrote them.
 */
const MARKER = /\s?\[(Page|Link|Action|Button):([^|\]]*)(?:\|([^\]]*))?\]/g;

export function plainMarkers(text: string): string {
  return text
    .replace(MARKER, (_marker, kind: string, label: string, target: string | undefined) => {
      if (kind === 'Link' && target && /^https?:\/\//i.test(target.trim())) return ` ${label.trim()} (${target.trim()})`;
      if (kind === 'Page') return ` ${label.trim()}`;
      return '';
    })
    .replace(/[ \t]+\n/g, '\n')
    .trim();
}
