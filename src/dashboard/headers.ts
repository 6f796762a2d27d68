// Security headers of every dashboard response. Scripts and styles come only from our own files
// (no inline code, so no nonce is needed); videos from the storage's URL origins a page declares.
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
          "img-src 'self'",
          `media-src ${media}`,
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
      if (!ctx.path.startsWith('/dashboard/assets/')) ctx.set('Cache-Control', 'no-store');
    }
  };
}
