import { describe, expect, it } from 'vitest';
import { redactForAudit } from '../../src/domains/audit/redact';

describe('the audit log’s one redaction rule', () => {
  it('replaces keys, secrets, tokens, hashes, identity and signing secrets and headers, at any depth, and keeps the rest', () => {
    const redacted = redactForAudit({
      name: 'Support key',
      secret: 'sk_live_abcdefghijklmnopqrstuvwxyz0123456789ABCD',
      signing_secret: 'whsec_abcdefghijklmnop',
      identity_secret: 'f00dfeedf00dfeedf00dfeedf00dfeed',
      key_hash: 'deadbeef',
      nested: [{ access_token: 'opaque-token', refresh_token: null, count: 3 }],
      headers: { 'x-honeycomb-team': 'hc_vendor_key' },
      header_names: ['x-honeycomb-team'],
      note: 'called with Bearer abcdefghijklmnopqrstuvwxyz',
    });
    expect(redacted).toEqual({
      name: 'Support key',
      secret: '[redacted]',
      signing_secret: '[redacted]',
      identity_secret: '[redacted]',
      key_hash: '[redacted]',
      nested: [{ access_token: '[redacted]', refresh_token: null, count: 3 }],
      headers: '[redacted]',
      header_names: ['x-honeycomb-team'],
      note: 'called with [redacted]',
    });
  });

  it('leaves null, numbers and plain text as they are', () => {
    expect(redactForAudit(null)).toBeNull();
    expect(redactForAudit({ days: 30, role: 'admin' })).toEqual({ days: 30, role: 'admin' });
  });
});
