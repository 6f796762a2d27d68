// Helpers of the dashboard tests: members created through the real data access, and a cookie-keeping
// HTTP client that signs in and submits forms the way a browser without JavaScript would.
import crypto from 'node:crypto';
import { createMember } from '../../src/db/members.js';
import type { Db } from '../../src/db/pool.js';
import { hashPassword } from '../../src/dashboard/password.js';

export async function createTestMember(db: Db, organizationId: string) {
  const email = `member-${crypto.randomBytes(4).toString('hex')}@example.test`;
  const password = `pw-${crypto.randomBytes(9).toString('base64url')}`;
  const member = await createMember(db, { organizationId, email, passwordHash: await hashPassword(password) });
  return { ...member, email, password };
}

/**
 * A documentation-range address per call (X-Forwarded-For: the app trusts its proxy), so tests do not share the per-IP
 * sign-in limit.
 */
let ipCounter = 0;
export const uniqueIp = () => `198.51.100.${(++ipCounter % 250) + 1}`;

export type Page = { status: number; headers: Headers; body: string; location: string | null; setCookies: string[] };

export const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? null;

export class DashboardClient {
  readonly cookies = new Map<string, string>();
  lastPage: Page | null = null;

  constructor(
    readonly base: string,
    readonly ip = uniqueIp(),
  ) {}

  async request(
    method: 'GET' | 'POST',
    path: string,
    fields?: Record<string, string | string[]>,
    headers: Record<string, string> = {},
  ): Promise<Page> {
    const body = fields
      ? new URLSearchParams(
          Object.entries(fields).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x])),
        )
      : undefined;
    const res = await fetch(this.base + path, {
      method,
      redirect: 'manual',
      headers: {
        'x-forwarded-for': this.ip,
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      body,
    });
    const setCookies = res.headers.getSetCookie();
    for (const c of setCookies) {
      const [pair] = c.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      if (/max-age=0/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const page = {
      status: res.status,
      headers: res.headers,
      body: await res.text(),
      location: res.headers.get('location'),
      setCookies,
    };
    this.lastPage = page;
    return page;
  }

  get = (path: string, headers?: Record<string, string>) => this.request('GET', path, undefined, headers);

  /** Submits a form with the CSRF token of the last page (or the one given). */
  post(path: string, fields: Record<string, string | string[]> = {}, csrf = csrfOf(this.lastPage?.body ?? '')) {
    return this.request('POST', path, csrf === null ? fields : { _csrf: csrf, ...fields });
  }

  async signIn(email: string, password: string): Promise<Page> {
    await this.get('/dashboard/login');
    return this.post('/dashboard/login', { email, password });
  }
}
