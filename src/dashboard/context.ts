import type { RouterContext } from '@koa/router';
import type { DashboardSession } from '../db/sessions.js';
import type { AppState } from '../http/context.js';

export type DashboardState = AppState & {
  /** The signed-in member's session (set on every dashboard request that carries a live cookie). */
  session?: DashboardSession;
  /** The url-encoded form of a POST (read by requireMember or the sign-in route). */
  form?: URLSearchParams;
  /** Origins the page's <video> elements load from, for the CSP media-src. */
  mediaOrigins?: string[];
};

export type DashboardContext = RouterContext<DashboardState>;
