import type { MailVerdicts } from './repository';

/** A DNS resolver as mailauth calls it (`resolver(name, rrtype)`): the system's, or a test's offline one. */
export type MailResolver = (name: string, rrtype: string) => Promise<string[] | string[][]>;

/** How long the checks may take before they count as `temperror` (DNS that never answers). */
const AUTH_MS = 10_000;

/**
 * SPF, DKIM and DMARC of a mail as received locally (mailauth: the connecting address, HELO and MAIL FROM of the
 * SMTP session). Anything but `pass` means unverified: the sender is then never treated as the address it claims.
 */
export async function authenticateMail(raw: Uint8Array, session: { ip: string; helo: string; sender: string }, resolver?: MailResolver): Promise<MailVerdicts> {
  // Loaded on first use; a runtime it cannot load on (it needs Node 22) leaves the mail unverified, never unstored.
  const loaded = await import('mailauth').catch(() => undefined);
  if (!loaded) return { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror' };
  const checks = loaded.authenticate(Buffer.from(raw), {
    ip: session.ip,
    helo: session.helo,
    sender: session.sender,
    mta: 'service.local',
    ...(resolver ? { resolver } : {}),
  });
  const timeout = new Promise<undefined>((resolve) => (globalThis.setTimeout(resolve, AUTH_MS) as unknown as NodeJS.Timeout).unref());
  const result = await Promise.race([checks.catch(() => undefined), timeout]);
  if (!result) return { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror' };
  const dkim =
    result.dkim?.results?.map((row: { status?: { result?: string } }) => row.status?.result).find((status) => status === 'pass') ??
    result.dkim?.results?.[0]?.status?.result ??
    'none';
  return { spf: result.spf ? (result.spf.status?.result ?? 'none') : 'none', dkim, dmarc: result.dmarc ? (result.dmarc.status?.result ?? 'none') : 'none' };
}
