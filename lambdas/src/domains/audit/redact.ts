import { REDACTED, redactSecrets } from '../runs/steps/redact';

/**
 * Keys whose values an audit entry never keeps, whatever their type: hashes of keys and tokens, signing and identity
 * secrets, headers (a telemetry vendor's key travels in one). The run steps' rule (redactSecrets) covers the rest:
 * keys, secrets, tokens, passwords, cookies by name, and secret-looking strings anywhere.
 */
const AUDIT_SECRET_KEY = /(hash|signing|identity_?secret|^headers$)/i;

/** The one rule of what an audit entry's before and after may hold: a copy with every secret replaced by `[redacted]`. */
export function redactForAudit(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactForAudit);
  if (value && typeof value === 'object') {
    return redactSecrets(
      Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, AUDIT_SECRET_KEY.test(key) && inner !== null ? REDACTED : redactForAudit(inner)])),
    );
  }
  return redactSecrets(value);
}
