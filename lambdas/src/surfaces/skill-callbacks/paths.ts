/** serviceApi: `/{lang}/api/v1/skills/<code>/<method>/`, where the SDK posts with SERVICE_API_URL = `{origin}/{lang}/api/v1`. */
const SERVICE_API_PATH = /^\/([a-z]{2})\/api\/v1\/skills\/([a-z][a-z0-9_-]*)\/([a-z][a-z0-9_]*)\/?$/;
/** Administrative routes: `/{lang}/api/v1/admin/<resource>/<action>/`, master key only. */
const ADMIN_PATH = /^\/([a-z]{2})\/api\/v1\/admin\/([a-z_]+\/[a-z_]+)\/?$/;

export type SkillApiPath = { kind: 'service'; skill: string; method: string } | { kind: 'admin'; route: string };

export function matchSkillApiPath(path: string): SkillApiPath | undefined {
  const service = SERVICE_API_PATH.exec(path);
  if (service) return { kind: 'service', skill: service[2]!, method: service[3]! };
  const admin = ADMIN_PATH.exec(path);
  if (admin) return { kind: 'admin', route: admin[2]! };
  return undefined;
}

export const isSkillApiPath = (path: string): boolean => matchSkillApiPath(path) !== undefined;
