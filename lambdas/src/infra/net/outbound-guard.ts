import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * The outbound guard: every request the platform makes to a URL a customer chose (webhooks, skills) goes through it.
 * - the URL form: https only (http too with `allowLocal`), no embedded credentials;
 * - the address: the host is resolved by the guard itself and every address it resolves to must be public unicast;
 * - pinning: the check runs inside the socket's `lookup`, so the address checked is the address connected to and a
 *   DNS answer that changes between check and connect (rebinding) cannot slip through.
 * `allowLocal` (WEBHOOK_ALLOW_LOCAL=1, local tests only) opens http and loopback, nothing else.
 */
export interface OutboundPolicy {
  allowLocal: boolean;
}

export class OutboundBlockedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundBlockedError';
  }
}

type Range = [network: string, prefix: number, label: string];

const IPV4_BLOCKED: Range[] = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private (RFC 1918)'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (includes cloud metadata)'],
  ['172.16.0.0', 12, 'private (RFC 1918)'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private (RFC 1918)'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved (includes broadcast)'],
];

/**
 * IPv6: only global unicast (2000::/3) is reachable at all, which already excludes loopback, unspecified, IPv4-mapped
 * (::ffff:0:0/96), NAT64 (64:ff9b::/96, 64:ff9b:1::/48), unique-local fc00::/7 (and so fd00:ec2::254), link-local and
 * multicast. Inside 2000::/3 these special ranges are refused as well.
 */
const IPV6_BLOCKED_INSIDE_GLOBAL: Range[] = [
  ['2001::', 32, 'Teredo tunnel'],
  ['2001:2::', 48, 'benchmarking'],
  ['2001:10::', 28, 'ORCHID'],
  ['2001:20::', 28, 'ORCHIDv2'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4 tunnel'],
  ['3fff::', 20, 'documentation'],
];

const IPV6_LABELS: Range[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::ffff:0:0', 96, 'IPv4-mapped'],
  ['64:ff9b::', 96, 'NAT64'],
  ['64:ff9b:1::', 48, 'NAT64 (local use)'],
  ['fc00::', 7, 'unique-local (includes cloud metadata)'],
  ['fe80::', 10, 'link-local'],
  ['ff00::', 8, 'multicast'],
];

function blockList(ranges: Range[], family: 'ipv4' | 'ipv6'): Array<[BlockList, string]> {
  return ranges.map(([network, prefix, label]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return [list, label];
  });
}

// Separate lists per family: a BlockList treats an IPv4 address as its IPv4-mapped IPv6 form, so mixing them would leak.
const ipv4Blocked = blockList(IPV4_BLOCKED, 'ipv4');
const ipv6Blocked = blockList(IPV6_BLOCKED_INSIDE_GLOBAL, 'ipv6');
const ipv6Labels = blockList(IPV6_LABELS, 'ipv6');
const ipv6Global = blockList([['2000::', 3, 'global unicast']], 'ipv6')[0]![0];
const LOOPBACK_V4 = blockList([['127.0.0.0', 8, 'loopback']], 'ipv4')[0]![0];

const labelOf = (lists: Array<[BlockList, string]>, address: string, family: 'ipv4' | 'ipv6') => lists.find(([list]) => list.check(address, family))?.[1];

/** Why an IP address may not be contacted, or undefined when it may. */
export function blockedAddressReason(address: string, policy: OutboundPolicy): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 4) {
    if (policy.allowLocal && LOOPBACK_V4.check(bare, 'ipv4')) return undefined;
    return labelOf(ipv4Blocked, bare, 'ipv4');
  }
  if (version === 6) {
    if (policy.allowLocal && bare === '::1') return undefined;
    if (!ipv6Global.check(bare, 'ipv6')) return labelOf(ipv6Labels, bare, 'ipv6') ?? 'reserved IPv6 (not global unicast)';
    return labelOf(ipv6Blocked, bare, 'ipv6');
  }
  return 'not an IP address';
}

/**
 * Checks the form of a target URL (and, when the host is an IP literal, the address: sockets skip `lookup` for those).
 * Throws OutboundBlockedError with a message fit for the API caller.
 */
export function checkOutboundUrl(raw: string, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundBlockedError('url must be an absolute URL');
  }
  const allowedProtocols = policy.allowLocal ? ['https:', 'http:'] : ['https:'];
  if (!allowedProtocols.includes(url.protocol)) throw new OutboundBlockedError('url must use https');
  if (url.username || url.password) throw new OutboundBlockedError('url must not embed credentials');
  if (!url.hostname) throw new OutboundBlockedError('url must name a host');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Names that always mean this machine (RFC 6761) are refused early; every other name is checked when resolved.
  if (!policy.allowLocal && (host === 'localhost' || host.endsWith('.localhost')))
    throw new OutboundBlockedError('url points to a loopback host, which is not allowed');
  if (isIP(host)) {
    const reason = blockedAddressReason(host, policy);
    if (reason) throw new OutboundBlockedError(`url points to a ${reason} address, which is not allowed`);
  }
  return url;
}

export type Resolver = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A socket `lookup` that resolves the host and refuses it when any of its addresses is blocked. Hand it to
 * node:http(s) agents (see createGuardedAgents) or to an undici Agent as `connect: { lookup }`.
 */
export function guardedLookup(policy: OutboundPolicy, resolve: Resolver = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { family: options.family ?? 0, hints: options.hints, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const blocked = addresses.map((entry) => [entry.address, blockedAddressReason(entry.address, policy)] as const).find(([, reason]) => reason);
      if (blocked) return callback(new OutboundBlockedError(`${hostname} resolves to ${blocked[0]}, a ${blocked[1]} address, which is not allowed`), '', 0);
      const first = addresses[0];
      if (!first) return callback(new OutboundBlockedError(`${hostname} did not resolve to any address`), '', 0);
      if (options.all) return callback(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}

export interface GuardedAgents {
  http: HttpAgent;
  https: HttpsAgent;
  /** The agent for a URL already accepted by checkOutboundUrl. */
  for(url: URL): HttpAgent | HttpsAgent;
  destroy(): void;
}

/**
 * Options of every keep-alive agent that calls out. A pooled socket idle for `timeout` is closed by us, and a server's
 * `Keep-Alive: timeout=N` hint lowers that to a second before N (node applies the hint only when the agent has a
 * timeout). Without it a socket is kept until the server closes it, and a request sent on it at that moment fails
 * with ECONNRESET: a tool call lost after five idle seconds (node's server default). 4 s is undici's own default.
 */
export const KEEP_ALIVE_AGENT_OPTIONS = { keepAlive: true, timeout: 4_000 } as const;

/** Keep-alive node:http(s) agents whose every new connection goes through the guarded lookup. */
export function createGuardedAgents(policy: OutboundPolicy, resolve?: Resolver): GuardedAgents {
  const lookup = guardedLookup(policy, resolve);
  const http = new HttpAgent({ ...KEEP_ALIVE_AGENT_OPTIONS, lookup });
  const https = new HttpsAgent({ ...KEEP_ALIVE_AGENT_OPTIONS, lookup });
  return {
    http,
    https,
    for: (url) => (url.protocol === 'https:' ? https : http),
    destroy() {
      http.destroy();
      https.destroy();
    },
  };
}
