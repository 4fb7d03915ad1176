/** The hash link of a screen (`#/agents/<id>/settings`): each part URI-encoded. */
export const href = (...parts: string[]) => `#/${parts.map(encodeURIComponent).join('/')}`;
