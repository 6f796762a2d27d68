// The client address that per-address limits count (dashboard sign-in, unauthenticated API requests).
import type { Context } from 'koa';

/**
 * The address limits count: the socket's, or behind a trusted proxy (TRUST_PROXY) the last
 * X-Forwarded-For entry — the one that proxy wrote; earlier ones are whatever the client sent, so
 * Koa's ctx.ip (the first entry) would let a client pick a fresh address per attempt.
 */
export function clientIp(ctx: Pick<Context, 'ips' | 'socket'>): string {
  return ctx.ips.at(-1) ?? ctx.socket.remoteAddress ?? 'unknown';
}
