import type { RouterContext } from '@koa/router';
import type { DashboardSession } from '../db/sessions.js';
import type { AppState } from '../http/context.js';

/** A file of a multipart form (src/dashboard/form.ts); an empty file input arrives with no name and no bytes. */
export type FormFile = { filename: string; bytes: Buffer };

export type DashboardState = AppState & {
  /** The signed-in member's session (set on every dashboard request that carries a live cookie). */
  session?: DashboardSession;
  /** The url-encoded form of a POST (read by requireMember or the sign-in route). */
  form?: URLSearchParams;
  /** The files of a multipart POST, by field name. */
  files?: Map<string, FormFile>;
  /** Origins the page's <video> elements load from, for the CSP media-src. */
  mediaOrigins?: string[];
};

export type DashboardContext = RouterContext<DashboardState>;
