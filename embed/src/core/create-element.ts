/**
 * The createElement signature Preact's `h` and React's `createElement` share, so one renderer serves the widget
 * (Preact) and the React adapter. Output is built from elements and text nodes only: never raw HTML.
 */
export type CreateElement<Node> = (type: string, props: Record<string, unknown> | null, ...children: unknown[]) => Node;
