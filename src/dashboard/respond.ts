import type { DashboardContext } from './context.js';
import type { SafeHtml } from './html.js';

export function sendPage(ctx: DashboardContext, page: SafeHtml, status = 200): void {
  ctx.status = status;
  ctx.type = 'html';
  ctx.body = page.toString();
}

/** 303 after a POST: the browser follows with a GET, so a reload does not repeat the change. */
export function seeOther(ctx: DashboardContext, url: string): void {
  ctx.redirect(url);
  ctx.status = 303;
}
