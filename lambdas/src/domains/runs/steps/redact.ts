/** What a step stores in place of a secret. */
export const REDACTED = '[redacted]';

/** Keys whose values are secrets whatever they look like. */
const SECRET_KEY = /(token|secret|passw(or)?d|api[_-]?key|authorization|credential|private[_-]?key|cookie|session)/i;

/** Values that look like secrets wherever they appear: our keys, bearer tokens, JWTs, common provider keys. */
const SECRET_VALUE = [
  /\b(sk|pk|rk)_(live|test)_[A-Za-z0-9]{8,}/g,
  /\bwhsec_[A-Za-z0-9+/=]{8,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/-]{8,}=*/gi,
  /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g,
  /\b(sk-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{20,}|xox[abpr]-[A-Za-z0-9-]{10,})/g,
];

const redactText = (text: string) => SECRET_VALUE.reduce((out, pattern) => out.replace(pattern, REDACTED), text);

/** A copy of a JSON value with secret-looking keys' values and secret-looking strings replaced by REDACTED. */
export function redactSecrets(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, SECRET_KEY.test(key) && typeof inner === 'string' ? REDACTED : redactSecrets(inner)]),
    );
  }
  return value;
}
