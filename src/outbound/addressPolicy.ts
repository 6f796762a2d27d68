// Which IP addresses an outbound request may go to (a webhook delivered, media fetched): public unicast only
// (interface 6.6.5). A range table after IANA's special-purpose registries; addresses that embed an
// IPv4 address (IPv4-mapped, NAT64, 6to4) are judged by the address they embed.
import net from 'node:net';

type Range = { family: 4 | 6; base: bigint; bits: number; reason: string; loopback?: true };

function range(cidr: string, reason: string, loopback?: true): Range {
  const [address, bits] = cidr.split('/');
  const family = net.isIPv4(address!) ? 4 : 6;
  return {
    family,
    base: family === 4 ? ipv4ToBigInt(address!) : ipv6ToBigInt(address!),
    bits: Number(bits),
    reason,
    loopback,
  };
}

// First match wins: specific ranges come before the ranges that contain them.
const IPV4_RANGES: Range[] = [
  range('0.0.0.0/8', 'unspecified address'),
  range('10.0.0.0/8', 'private address'),
  range('100.64.0.0/10', 'carrier-grade NAT (shared) address'),
  range('127.0.0.0/8', 'loopback address', true),
  range('169.254.0.0/16', 'link-local address'),
  range('172.16.0.0/12', 'private address'),
  range('192.0.0.0/24', 'IETF protocol assignment'),
  range('192.0.2.0/24', 'documentation address'),
  range('192.88.99.0/24', 'deprecated 6to4 relay anycast address'),
  range('192.168.0.0/16', 'private address'),
  range('198.18.0.0/15', 'benchmarking address'),
  range('198.51.100.0/24', 'documentation address'),
  range('203.0.113.0/24', 'documentation address'),
  range('224.0.0.0/4', 'multicast address'),
  range('255.255.255.255/32', 'broadcast address'),
  range('240.0.0.0/4', 'reserved address'),
];

const IPV6_RANGES: Range[] = [
  range('::/128', 'unspecified address'),
  range('::1/128', 'loopback address', true),
  range('::/96', 'deprecated IPv4-compatible address'),
  range('100::/64', 'discard-only address'),
  range('64:ff9b:1::/48', 'local-use NAT64 address'),
  range('2001::/32', 'Teredo tunnel address'),
  range('2001:2::/48', 'benchmarking address'),
  range('2001::/23', 'IETF protocol assignment'),
  range('2001:db8::/32', 'documentation address'),
  range('3fff::/20', 'documentation address'),
  range('fc00::/7', 'unique-local address'),
  range('fe80::/10', 'link-local address'),
  range('fec0::/10', 'site-local address'),
  range('ff00::/8', 'multicast address'),
];

/** IPv6 prefixes that carry an IPv4 address: the low 32 bits, or bits 16..48 for 6to4. */
const EMBEDDING_IPV4: Array<{ range: Range; extract: (v: bigint) => bigint; label: string }> = [
  { range: range('::ffff:0:0/96', ''), extract: (v) => v & 0xffffffffn, label: 'IPv4-mapped' },
  { range: range('64:ff9b::/96', ''), extract: (v) => v & 0xffffffffn, label: 'NAT64' },
  { range: range('2002::/16', ''), extract: (v) => (v >> 80n) & 0xffffffffn, label: '6to4' },
];

/** Everything outside global unicast 2000::/3 that no rule above names. */
const GLOBAL_UNICAST = range('2000::/3', '');

function inRange(value: bigint, r: Range): boolean {
  const width = r.family === 4 ? 32 : 128;
  const shift = BigInt(width - r.bits);
  return value >> shift === r.base >> shift;
}

function ipv4ToBigInt(address: string): bigint {
  return address.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n);
}

const bigIntToIpv4 = (v: bigint) => [24n, 16n, 8n, 0n].map((s) => Number((v >> s) & 0xffn)).join('.');

/** Any valid IPv6 spelling (compressed, embedded dotted quad) as a 128-bit number. */
function ipv6ToBigInt(address: string): bigint {
  // The WHATWG URL parser validates and canonicalises (`::ffff:127.0.0.1` → `::ffff:7f00:1`).
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head, tail] = canonical.split('::') as [string, string | undefined];
  const headWords = head ? head.split(':') : [];
  const tailWords = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - headWords.length - tailWords.length).fill('0');
  return [...headWords, ...fill, ...tailWords].reduce((acc, w) => (acc << 16n) | BigInt(parseInt(w, 16)), 0n);
}

export type AddressPolicy = {
  /** Local testing only (OUTBOUND_UNSAFE_ALLOW_LOOPBACK, for webhooks and media URLs): loopback addresses pass. */
  allowLoopback: boolean;
};

/**
 * Why `address` (an IPv4 or IPv6 literal, no brackets) is not a public unicast address, or null when
 * it is. Anything that is not an IP literal is refused too.
 */
export function nonPublicAddressReason(address: string, policy: AddressPolicy): string | null {
  if (net.isIPv4(address)) return ipv4Reason(ipv4ToBigInt(address), policy);
  if (!net.isIPv6(address)) return `"${address}" is not an IP address`;
  if (address.includes('%')) return 'scoped (zone-local) address';
  const value = ipv6ToBigInt(address);
  for (const embedding of EMBEDDING_IPV4) {
    if (!inRange(value, embedding.range)) continue;
    const v4 = embedding.extract(value);
    const reason = ipv4Reason(v4, policy);
    return reason && `${embedding.label} form of ${bigIntToIpv4(v4)} (${reason})`;
  }
  const match = IPV6_RANGES.find((r) => inRange(value, r));
  if (match) return rangeReason(match, policy);
  return inRange(value, GLOBAL_UNICAST) ? null : 'reserved address (not global unicast)';
}

function ipv4Reason(value: bigint, policy: AddressPolicy): string | null {
  const match = IPV4_RANGES.find((r) => inRange(value, r));
  return match ? rangeReason(match, policy) : null;
}

const rangeReason = (r: Range, policy: AddressPolicy) => (r.loopback && policy.allowLoopback ? null : r.reason);
