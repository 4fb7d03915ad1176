/** How long a workspace may keep visitors' conversations: days after their last activity (zod-free: the dashboard reads it). */
export const RETENTION_DAYS = [30, 90, 365] as const;
export type RetentionDays = (typeof RETENTION_DAYS)[number];
