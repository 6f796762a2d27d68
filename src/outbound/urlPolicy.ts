// Public-HTTPS URL checks against server-side request forgery: every request the service makes to a
// URL it was given goes through them (webhook_url, interface 6.6.5, src/webhooks/webhookUrl.ts; the
// media URLs of requests, src/media/requestMedia.ts; any future fetch). Run at request time (invalid
// input: a 400) and again before every connection, where the vetted address is the one connected to
// (src/webhooks/send.ts, src/media/download.ts), so DNS rebinding cannot redirect.
import type { LookupAddress } from 'node:dns';
import dns from 'node:dns/promises';
import net, { type LookupFunction } from 'node:net';
import type { Config } from '../config.js';
import { nonPublicAddressReason, type AddressPolicy } from './addressPolicy.js';

/** Host name → its addresses. Injectable so tests control resolution (there is no internet in CI). */
export type HostResolver = (hostname: string) => Promise<string[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export type UrlPolicy = AddressPolicy & { resolve: HostResolver };

export const urlPolicyFromConfig = (
  config: Pick<Config, 'outbound'>,
  resolve: HostResolver = systemResolver,
): UrlPolicy => ({
  allowLoopback: config.outbound.unsafeAllowLoopback,
  resolve,
});

/** A URL that passed every check, with the one address connections may go to. */
export type PublicTarget = {
  url: URL;
  /** Host as sent in SNI and Host: no IPv6 brackets, no trailing dot. */
  hostname: string;
  address: string;
  family: 4 | 6;
};

/**
 * The https.request options that connect to a vetted target and nowhere else: every lookup answers
 * with the vetted address, and the certificate is checked against the name (IP literals carry no
 * SNI, RFC 6066). A fresh socket each time (no agent), so no pooled connection goes elsewhere.
 */
export function pinnedConnection(target: PublicTarget) {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all)
      (callback as (e: null, a: LookupAddress[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  return {
    host: target.hostname,
    port: target.url.port || 443,
    path: target.url.pathname + target.url.search,
    servername: net.isIP(target.hostname) ? undefined : target.hostname,
    lookup,
    agent: false as const,
  };
}

const RESOLVE_TIMEOUT_MS = 5000;

/** Names reserved for local networks: never public, whatever they resolve to. */
const PRIVATE_NAME_SUFFIXES = ['local', 'internal', 'home.arpa', 'localdomain'];

/**
 * Why a URL is not a public HTTPS URL. The message is the reason for the tenant who gave the URL: it
 * names only what they wrote (never an address a name resolved to, so internal names cannot be mapped
 * by trying them); `detail` adds the address, for the operator's log.
 */
export class NonPublicUrlError extends Error {
  constructor(
    reason: string,
    /** The host could not be resolved (now): a later check may pass. */
    readonly unresolved = false,
    readonly detail: string = reason,
  ) {
    super(reason);
    this.name = 'NonPublicUrlError';
  }
}

const rejected = (reason: string, unresolved = false, detail = reason) =>
  new NonPublicUrlError(reason, unresolved, detail);

/**
 * The checks themselves: https only, no credentials, no local-use names, and the host (or every
 * address its name resolves to) public unicast. Throws NonPublicUrlError with the reason.
 */
export async function vetPublicHttpsUrl(url: string, policy: UrlPolicy): Promise<PublicTarget> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw rejected('not a valid URL');
  }
  if (parsed.protocol !== 'https:') throw rejected(`scheme ${parsed.protocol.slice(0, -1)} is not https`);
  if (parsed.username || parsed.password) throw rejected('credentials (user:password@) are not allowed in the URL');

  // The WHATWG parser has already turned every IPv4 spelling (2130706433, 0177.0.0.1, 0x7f.1, 127.1) into a dotted
  // quad.
  const hostname = parsed.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.+$/, '')
    .toLowerCase();
  if (!hostname) throw rejected('the host is empty');
  if (net.isIP(hostname)) {
    const reason = nonPublicAddressReason(hostname, policy);
    if (reason) throw rejected(`host ${hostname} is not public (${reason})`);
    return { url: parsed, hostname, address: hostname, family: net.isIPv4(hostname) ? 4 : 6 };
  }

  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    if (!policy.allowLoopback) throw rejected(`host ${hostname} is a loopback name`);
  } else if (PRIVATE_NAME_SUFFIXES.some((s) => hostname === s || hostname.endsWith(`.${s}`))) {
    throw rejected(`host ${hostname} is a private-use name`);
  }
  const addresses = await resolveBounded(hostname, policy.resolve);
  for (const address of addresses) {
    const reason = nonPublicAddressReason(address, policy);
    if (reason)
      throw rejected(
        `host ${hostname} resolves to an address that is not public`,
        false,
        `host ${hostname} resolves to ${address}, which is not public (${reason})`,
      );
  }
  return { url: parsed, hostname, address: addresses[0]!, family: net.isIPv4(addresses[0]!) ? 4 : 6 };
}

async function resolveBounded(hostname: string, resolve: HostResolver): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), RESOLVE_TIMEOUT_MS);
  });
  try {
    const addresses = await Promise.race([resolve(hostname), timeout]);
    if (addresses.length === 0) throw new Error('no addresses');
    return addresses;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw rejected(`host ${hostname} could not be resolved (${e.code ?? e.message})`, true);
  } finally {
    clearTimeout(timer);
  }
}
