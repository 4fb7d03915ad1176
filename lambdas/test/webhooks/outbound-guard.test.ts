import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockedAddressReason, checkOutboundUrl, createGuardedAgents, OutboundBlockedError } from '../../src/infra/net/outbound-guard';

const strict = { allowLocal: false };
const local = { allowLocal: true };

describe('outbound guard: addresses', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped'],
    ['64:ff9b::a9fe:a9fe', 'NAT64'],
    ['64:ff9b:1::1', 'NAT64'],
    ['fd00:ec2::254', 'unique-local'],
    ['fc00::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2002:7f00:1::', '6to4'],
    ['2001:0:4136:e378::1', 'Teredo'],
    ['::7f00:1', 'not global unicast'],
  ])('refuses %s (%s)', (address, label) => {
    expect(blockedAddressReason(address, strict)).toContain(label);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.215.14', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e'])(
    'allows the public address %s',
    (address) => {
      expect(blockedAddressReason(address, strict)).toBeUndefined();
    },
  );

  it('opens loopback, and only loopback, with allowLocal', () => {
    expect(blockedAddressReason('127.0.0.1', local)).toBeUndefined();
    expect(blockedAddressReason('::1', local)).toBeUndefined();
    for (const address of ['10.0.0.1', '169.254.169.254', 'fd00:ec2::254', '::ffff:127.0.0.1', '100.64.0.1']) {
      expect(blockedAddressReason(address, local), address).toBeDefined();
    }
  });
});

describe('outbound guard: URLs', () => {
  it('requires https unless local delivery is allowed', () => {
    expect(checkOutboundUrl('https://hooks.example.com/x', strict).hostname).toBe('hooks.example.com');
    expect(() => checkOutboundUrl('http://hooks.example.com/x', strict)).toThrow('url must use https');
    expect(checkOutboundUrl('http://127.0.0.1:8080/x', local).port).toBe('8080');
    expect(() => checkOutboundUrl('file:///etc/passwd', local)).toThrow('url must use https');
  });

  it('refuses credentials and blocked IP literals in any notation', () => {
    expect(() => checkOutboundUrl('https://user:secret@hooks.example.com/', strict)).toThrow('credentials');
    expect(() => checkOutboundUrl('https://169.254.169.254/latest', strict)).toThrow(/link-local/);
    expect(() => checkOutboundUrl('https://[::ffff:169.254.169.254]/', strict)).toThrow(/IPv4-mapped/);
    // WHATWG URL parsing normalises these to 127.0.0.1 before the check.
    expect(() => checkOutboundUrl('https://2130706433/', strict)).toThrow(/loopback/);
    expect(() => checkOutboundUrl('https://0x7f.1/', strict)).toThrow(/loopback/);
    expect(() => checkOutboundUrl('not a url', strict)).toThrow(OutboundBlockedError);
    expect(() => checkOutboundUrl('https://localhost/x', strict)).toThrow(/loopback host/);
    expect(() => checkOutboundUrl('https://api.localhost/x', strict)).toThrow(/loopback host/);
  });
});

describe('outbound guard: the resolved address is checked and pinned for the connection', () => {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits += 1;
    res.end('reached');
  });
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (url: string, agent: ReturnType<typeof createGuardedAgents>['http']) =>
    new Promise<string>((resolve, reject) => {
      request(url, { agent }, (res) => {
        res.setEncoding('utf8');
        let body = '';
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(body));
      })
        .on('error', reject)
        .end();
    });

  it('refuses a host name that resolves to a blocked address, before connecting', async () => {
    const agents = createGuardedAgents(strict);
    try {
      await expect(get(`http://localhost:${port}/`, agents.http)).rejects.toThrow(/localhost resolves to .*loopback/);
      expect(hits).toBe(0);
    } finally {
      agents.destroy();
    }
  });

  it('checks the answer the connection uses: one resolution per connection, inside the socket lookup', async () => {
    // No check-then-connect gap for a rebinding DNS to exploit: the resolver runs once, and its answer is dialled.
    let calls = 0;
    const agents = createGuardedAgents(local, (_host, _options, callback) => {
      calls += 1;
      callback(null, [{ address: '127.0.0.1', family: 4 }]);
    });
    try {
      expect(await get(`http://rebind.test:${port}/`, agents.http)).toBe('reached');
      expect(calls).toBe(1);
    } finally {
      agents.destroy();
    }
  });

  it('refuses a host when any of its answers is blocked (a public record beside a private one)', async () => {
    const before = hits;
    const agents = createGuardedAgents(strict, (_host, _options, callback) =>
      callback(null, [
        { address: '93.184.215.14', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ]),
    );
    try {
      await expect(get(`http://rebind.test:${port}/`, agents.http)).rejects.toThrow(/rebind.test resolves to 10.0.0.5, a private/);
      expect(hits).toBe(before);
    } finally {
      agents.destroy();
    }
  });

  it('lets loopback through with allowLocal', async () => {
    const agents = createGuardedAgents(local);
    try {
      expect(await get(`http://localhost:${port}/`, agents.http)).toBe('reached');
    } finally {
      agents.destroy();
    }
  });
});
