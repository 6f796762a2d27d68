// Security headers of every dashboard response. Scripts and styles come only from our own files
// (no inline code, so no nonce is needed); videos and their poster images from the storage's URL
// origins a page declares; the script connects only to our own origin (a generation's live events).
import type { Middleware } from 'koa';
import type { DashboardState } from './context.js';

export function securityHeaders(): Middleware<DashboardState> {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      const media = ["'self'", ...new Set(ctx.state.mediaOrigins ?? [])].join(' ');
      ctx.set({
        'Content-Security-Policy': [
          "default-src 'none'",
          "script-src 'self'",
          "style-src 'self'",
          `img-src ${media}`,
          `media-src ${media}`,
          "connect-src 'self'",
          "form-action 'self'",
          "frame-ancestors 'none'",
          "base-uri 'none'",
        ].join('; '),
        'X-Frame-Options': 'DENY',
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'Cross-Origin-Opener-Policy': 'same-origin',
      });
      // Pages may hold a key shown once or the signing secret: never store them in any cache.
      // Event streams keep `no-transform`: a compressing proxy would hold their events back.
      if (!ctx.path.startsWith('/dashboard/assets/'))
        ctx.set('Cache-Control', ctx.response.is('text/event-stream') ? 'no-store, no-transform' : 'no-store');
    }
  };
}
