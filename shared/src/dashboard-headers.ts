/**
 * The security headers of every dashboard page, the same locally (entries/local/static-files.ts) and on CloudFront
 * (cdk/lib/dashboard.ts): scripts and styles from the dashboard's own origin only (no `unsafe-inline`, no
 * `unsafe-eval`), and never inside a frame. preview.html (the widget preview the Settings screen frames) may be framed
 * by the dashboard itself and nothing else.
 */
export const DASHBOARD_PREFIX = '/dashboard/';
const POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
];
export const DASHBOARD_CSP = [...POLICY, "frame-ancestors 'none'"].join('; ');
export const DASHBOARD_PREVIEW_CSP = [...POLICY, "frame-ancestors 'self'"].join('; ');
export const DASHBOARD_PREVIEW_PAGE = 'preview.html';
