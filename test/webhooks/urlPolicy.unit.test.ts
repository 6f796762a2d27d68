// SSRF rules for webhook_url (interface 6.6.5): every spelling of a non-public address is refused
// with its reason; names are judged by what a controlled resolver answers (no internet here).
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { DomainError } from '../../src/errors.js';
import { toApiError } from '../../src/http/errors.js';
import { NonPublicUrlError, vetPublicHttpsUrl, type HostResolver } from '../../src/outbound/urlPolicy.js';
import { assertPublicWebhookUrl, vetWebhookUrl } from '../../src/webhooks/webhookUrl.js';

const DNS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.215.14'],
  'v6.example.com': ['2606:4700:4700::1111'],
  'dual.example.com': ['93.184.215.14', '2606:4700:4700::1111'],
  'intranet.example.com': ['10.0.0.5'],
  'mixed.example.com': ['93.184.215.14', '192.168.1.10'],
  'metadata.example.com': ['169.254.169.254'],
  'loop.example.com': ['127.0.0.1'],
  'v6loop.example.com': ['::1'],
  'mapped.example.com': ['::ffff:10.0.0.1'],
  'ula.example.com': ['fd00::1'],
  'cgnat.example.com': ['100.100.100.100'],
  'zero.example.com': ['0.0.0.0'],
  'linklocal6.example.com': ['fe80::1%eth0'],
  'empty.example.com': [],
  localhost: ['127.0.0.1', '::1'],
};

const resolver: HostResolver = async (host) => {
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answer;
};

const strict = { allowLoopback: false, resolve: resolver };

async function rejection(url: string, policy = strict): Promise<DomainError> {
  const err = await vetWebhookUrl(url, policy).then(
    (t) => {
      throw new Error(`accepted ${url} → ${t.address}`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

// [url, expected part of the reason]
const REJECTED: Array<[string, string]> = [
  // scheme, syntax, credentials
  ['http://hooks.example.com/webhook', 'scheme http is not https'],
  ['ftp://hooks.example.com/webhook', 'scheme ftp is not https'],
  ['not a url', 'not a valid URL'],
  ['https://999.1.1.1/', 'not a valid URL'],
  ['https://[fe80::1%25eth0]/', 'not a valid URL'],
  ['https://user:pw@hooks.example.com/', 'credentials'],
  ['https://user@hooks.example.com/', 'credentials'],
  // loopback and private-use names
  ['https://localhost/', 'loopback name'],
  ['https://localhost./', 'loopback name'],
  ['https://LOCALHOST:8443/x', 'loopback name'],
  ['https://api.localhost/', 'loopback name'],
  ['https://printer.local/', 'private-use name'],
  ['https://db.internal/', 'private-use name'],
  ['https://router.home.arpa/', 'private-use name'],
  // IPv4 loopback in every spelling
  ['https://127.0.0.1/', 'loopback address'],
  ['https://127.0.0.1./', 'loopback address'],
  ['https://127.0.0.1:8443/', 'loopback address'],
  ['https://2130706433/', 'loopback address'],
  ['https://0177.0.0.1/', 'loopback address'],
  ['https://0x7f.1/', 'loopback address'],
  ['https://0x7f000001/', 'loopback address'],
  ['https://127.1/', 'loopback address'],
  ['https://127.0.1/', 'loopback address'],
  ['https://%31%32%37.0.0.1/', 'loopback address'],
  ['https://\uff11\uff12\uff17.0.0.1/', 'loopback address'],
  ['https://127.255.255.254/', 'loopback address'],
  // other IPv4 ranges
  ['https://0/', 'unspecified address'],
  ['https://0.0.0.0/', 'unspecified address'],
  ['https://10.0.0.1/', 'private address'],
  ['https://012.0.0.1/', 'private address'],
  ['https://172.16.5.4/', 'private address'],
  ['https://172.31.255.255/', 'private address'],
  ['https://192.168.1.1/', 'private address'],
  ['https://3232235777/', 'private address'],
  ['https://169.254.169.254/latest/meta-data/', 'link-local address'],
  ['https://100.64.0.1/', 'carrier-grade NAT'],
  ['https://100.127.255.254/', 'carrier-grade NAT'],
  ['https://224.0.0.1/', 'multicast address'],
  ['https://239.255.255.250/', 'multicast address'],
  ['https://255.255.255.255/', 'broadcast address'],
  ['https://240.0.0.1/', 'reserved address'],
  ['https://192.0.2.10/', 'documentation address'],
  ['https://198.51.100.7/', 'documentation address'],
  ['https://203.0.113.9/', 'documentation address'],
  ['https://198.18.0.1/', 'benchmarking address'],
  ['https://198.19.255.1/', 'benchmarking address'],
  ['https://192.0.0.8/', 'IETF protocol assignment'],
  ['https://192.88.99.1/', '6to4 relay'],
  // IPv6 literals
  ['https://[::1]/', 'loopback address'],
  ['https://[0:0:0:0:0:0:0:1]/', 'loopback address'],
  ['https://[::]/', 'unspecified address'],
  ['https://[::ffff:127.0.0.1]/', 'IPv4-mapped form of 127.0.0.1 (loopback address)'],
  ['https://[::ffff:7f00:1]/', 'IPv4-mapped form of 127.0.0.1 (loopback address)'],
  ['https://[::ffff:a9fe:a9fe]/', 'IPv4-mapped form of 169.254.169.254 (link-local address)'],
  ['https://[::ffff:10.1.2.3]/', 'IPv4-mapped form of 10.1.2.3 (private address)'],
  ['https://[::127.0.0.1]/', 'IPv4-compatible'],
  ['https://[fe80::1]/', 'link-local address'],
  ['https://[fc00::1]/', 'unique-local address'],
  ['https://[fd12:3456:789a::1]/', 'unique-local address'],
  ['https://[fec0::1]/', 'site-local address'],
  ['https://[ff02::1]/', 'multicast address'],
  ['https://[2002:7f00:1::]/', '6to4 form of 127.0.0.1 (loopback address)'],
  ['https://[2002:c0a8:101::1]/', '6to4 form of 192.168.1.1 (private address)'],
  ['https://[64:ff9b::10.0.0.1]/', 'NAT64 form of 10.0.0.1 (private address)'],
  ['https://[64:ff9b::a9fe:a9fe]/', 'NAT64 form of 169.254.169.254 (link-local address)'],
  ['https://[64:ff9b:1::1]/', 'local-use NAT64'],
  ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'Teredo'],
  ['https://[2001:db8::1]/', 'documentation address'],
  ['https://[2001:2::1]/', 'benchmarking address'],
  ['https://[100::1]/', 'discard-only'],
  ['https://[4000::1]/', 'not global unicast'],
  // names that resolve to non-public addresses: refused without naming the address (the log has it)
  ['https://intranet.example.com/', 'host intranet.example.com resolves to an address that is not public'],
  ['https://intranet.example.com./', 'resolves to an address that is not public'],
  ['https://INTRANET.Example.com/', 'resolves to an address that is not public'],
  ['https://mixed.example.com/', 'resolves to an address that is not public'],
  ['https://metadata.example.com/', 'resolves to an address that is not public'],
  ['https://loop.example.com/', 'resolves to an address that is not public'],
  ['https://v6loop.example.com/', 'resolves to an address that is not public'],
  ['https://mapped.example.com/', 'resolves to an address that is not public'],
  ['https://ula.example.com/', 'resolves to an address that is not public'],
  ['https://cgnat.example.com/', 'resolves to an address that is not public'],
  ['https://zero.example.com/', 'resolves to an address that is not public'],
  ['https://linklocal6.example.com/', 'resolves to an address that is not public'],
  ['https://nx.example.com/', 'could not be resolved (ENOTFOUND)'],
  ['https://empty.example.com/', 'could not be resolved'],
];

describe('webhook_url policy', () => {
  it('covers at least 40 refused URLs', () => expect(REJECTED.length).toBeGreaterThanOrEqual(40));

  for (const [url, reason] of REJECTED) {
    it(`refuses ${url}`, async () => {
      const err = await rejection(url);
      expect(err.kind).toBe('invalid_input');
      expect(toApiError(err).status).toBe(400);
      expect(err.code).toBe('invalid_webhook_url');
      expect(err.param).toBe('webhook_url');
      expect(err.message).toMatch(/^webhook_url must be a public HTTPS URL: /);
      expect(err.message).toContain(reason);
    });
  }

  const ACCEPTED: Array<[string, string, string]> = [
    ['https://hooks.example.com/webhooks?source=video', 'hooks.example.com', '93.184.215.14'],
    ['https://hooks.example.com:8443/', 'hooks.example.com', '93.184.215.14'],
    ['https://HOOKS.Example.com./x', 'hooks.example.com', '93.184.215.14'],
    ['https://v6.example.com/', 'v6.example.com', '2606:4700:4700::1111'],
    ['https://dual.example.com/', 'dual.example.com', '93.184.215.14'],
    ['https://93.184.215.14/hook', '93.184.215.14', '93.184.215.14'],
    ['https://1572394766/hook', '93.184.215.14', '93.184.215.14'],
    ['https://[2606:4700:4700::1111]/', '2606:4700:4700::1111', '2606:4700:4700::1111'],
    ['https://[::ffff:8.8.8.8]/', '::ffff:808:808', '::ffff:808:808'],
    ['https://[2002:808:808::1]/', '2002:808:808::1', '2002:808:808::1'],
    ['https://[64:ff9b::8.8.8.8]/', '64:ff9b::808:808', '64:ff9b::808:808'],
  ];
  for (const [url, hostname, address] of ACCEPTED) {
    it(`accepts ${url} and pins ${address}`, async () => {
      const target = await vetWebhookUrl(url, strict);
      expect(target).toMatchObject({ hostname, address });
    });
  }

  it('a rebinding name: the second resolution is checked again and refused', async () => {
    const answers = [['93.184.215.14'], ['10.0.0.7']];
    let calls = 0;
    const rebinding: HostResolver = async () => answers[Math.min(calls++, answers.length - 1)]!;
    const policy = { allowLoopback: false, resolve: rebinding };
    await expect(vetWebhookUrl('https://rebind.example.com/', policy)).resolves.toMatchObject({
      address: '93.184.215.14',
    });
    const err = await rejection('https://rebind.example.com/', policy);
    expect(err.message).toContain('resolves to an address that is not public');
  });

  it('a refused name never shows the tenant the address it resolved to; the detail (for the log) has it', async () => {
    const names = Object.entries(DNS).filter(([host, addresses]) => host.endsWith('.example.com') && addresses.length);
    for (const [host, addresses] of names) {
      const outcome = await vetPublicHttpsUrl(`https://${host}/`, strict).catch((e: unknown) => e);
      if (!(outcome instanceof NonPublicUrlError)) continue; // a public name
      for (const address of addresses) expect(outcome.message).not.toContain(address.split('%')[0]);
      expect(outcome.message).toBe(`host ${host} resolves to an address that is not public`);
      expect(outcome.detail).toMatch(/^host .* resolves to .*, which is not public \(.+\)$/);
    }
    const intranet = await vetPublicHttpsUrl('https://intranet.example.com/', strict).catch((e: unknown) => e);
    expect((intranet as NonPublicUrlError).detail).toContain('10.0.0.5, which is not public (private address)');
  });

  it('a resolver that never answers is cut off, and the URL refused', async () => {
    const hanging: HostResolver = () => new Promise(() => {});
    const started = Date.now();
    const err = await rejection('https://slow.example.com/', { allowLoopback: false, resolve: hanging });
    expect(err.message).toContain('could not be resolved (timed out)');
    expect(Date.now() - started).toBeLessThan(8000);
  }, 10_000);

  it('the unsafe local-testing setting lets loopback through, and nothing else', async () => {
    const config = loadConfig({ OUTBOUND_UNSAFE_ALLOW_LOOPBACK: 'true' });
    for (const url of [
      'https://127.0.0.1:9443/',
      'https://[::1]/',
      'https://0x7f.1/',
      'https://localhost/',
      'https://loop.example.com/',
    ]) {
      await expect(assertPublicWebhookUrl(url, config, resolver), url).resolves.toBeTruthy();
    }
    for (const url of [
      'http://127.0.0.1/',
      'https://10.0.0.1/',
      'https://169.254.169.254/',
      'https://[fe80::1]/',
      'https://intranet.example.com/',
      'https://u:p@127.0.0.1/',
    ]) {
      await expect(assertPublicWebhookUrl(url, config, resolver), url).rejects.toMatchObject({
        code: 'invalid_webhook_url',
      });
    }
  });

  it('is strict by default', async () => {
    const config = loadConfig({});
    expect(config.outbound.unsafeAllowLoopback).toBe(false);
    expect(config.outbound.unsafeCaFile).toBeUndefined();
    await expect(assertPublicWebhookUrl('https://127.0.0.1/', config, resolver)).rejects.toMatchObject({
      kind: 'invalid_input',
      code: 'invalid_webhook_url',
    });
  });
});
