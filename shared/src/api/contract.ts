import type { z } from 'zod';
import type { EndpointAccess } from '../role-permissions';

export type HttpMethod = 'GET' | 'POST';

/** One REST endpoint: its path `<resource>/<action>`, inputs and the shape of `data` on success. */
export interface EndpointContract {
  path: string;
  method: HttpMethod;
  summary: string;
  query?: z.ZodType;
  body?: z.ZodType;
  data: z.ZodType;
  status: 200 | 201 | 202;
  /** Who may call it: a permission of the caller's role (an API key acts as admin), `public` or `session` (see shared/src/role-permissions.ts). */
  access: EndpointAccess;
  /** The JSON body's size cap when it is not the platform's MAX_BODY_BYTES (a file upload). */
  maxBodyBytes?: number;
  /** Accepts an Idempotency-Key header (every create and agents/command). */
  idempotent?: boolean;
  /** The fields of `data` holding a secret shown once: a replay answers them as null with `secret_already_shown: true`. */
  secretFields?: readonly string[];
  /** Answers Server-Sent Events instead of the JSON envelope (errors before the first event are still the envelope). */
  stream?: { description: string; events: Record<string, { schema: z.ZodType; description: string }> };
  /** Answers a file's bytes instead of the JSON envelope (errors are still the envelope); `data` is what the pipeline checks before it. */
  file?: { description: string };
}
