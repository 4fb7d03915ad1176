import type { z } from 'zod';

/** An error with a stable machine-readable code; a handler may throw it to give the model a clear reason. */
export class SkillError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'SkillError';
  }
}

/** Zod issues as one line that names each failing field, e.g. `city: Too small: expected string to have >=1 characters`. */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
      // A bad record key carries the reason in nested issues ("action must be lowercase ...").
      const message = issue.code === 'invalid_key' ? issue.issues.map((inner) => inner.message).join(', ') : issue.message;
      return `${path}: ${message}`;
    })
    .join('; ');
}
