// Caps on open event streams (README "Security"): per API key and per organization, across API
// processes (two here, on one database), refused with a 429 of their own code while the streams
// already open keep flowing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/catalog/index.js';
import { createApiKey } from '../../src/db/apiKeys.js';
import { addGeneration } from '../usage/support.js';
import { createOrgWithKey, startApi, type TestApi } from '../support/stack.js';

const CAPS = { STREAMS_PER_KEY: '2', STREAMS_PER_ORGANIZATION: '3', STREAM_HEARTBEAT_SECONDS: '0.2' };

let one: TestApi;
let two: TestApi;
beforeAll(async () => {
  [one, two] = await Promise.all([startApi(CAPS), startApi(CAPS)]);
});
afterAll(async () => {
  await Promise.all([one?.close(), two?.close()]);
});

type Open = {
  status: number;
  code?: string;
  retryAfter: string | null;
  reader?: ReadableStreamDefaultReader;
  abort(): void;
};

async function openStream(base: string, key: string, id: string): Promise<Open> {
  const controller = new AbortController();
  const res = await fetch(`${base}/v1/responses/${id}?stream=true`, {
    headers: { authorization: `Bearer ${key}` },
    signal: controller.signal,
  });
  const abort = () => controller.abort();
  if (res.status !== 200) {
    const body = (await res.json()) as { error?: { code?: string } };
    return { status: res.status, code: body.error?.code, retryAfter: res.headers.get('retry-after'), abort };
  }
  return { status: 200, retryAfter: null, reader: res.body!.getReader(), abort };
}

/** Reads until the stream has carried `bytes` more bytes (events or keep-alive comments). */
async function flows(stream: Open, bytes = 40): Promise<boolean> {
  let got = 0;
  while (got < bytes) {
    const { value, done } = await stream.reader!.read();
    if (done) return false;
    got += value.length;
  }
  return true;
}

describe('event stream caps', () => {
  it('refuses streams past the caps per key and organization (STREAM_LIMIT_EXCEEDED); open ones flow on', async () => {
    const { org, key, keyId } = await createOrgWithKey(one.db);
    const second = await createApiKey(one.db, org.id, 'second key');
    const id = await addGeneration(
      one.db,
      Catalog.load(),
      { orgId: org.id, keyId },
      {
        engine: 'lottie',
        model: 'gpt-4o-mini',
        status: 'queued',
        createdAt: new Date(),
      },
    );
    const open: Open[] = [];
    try {
      // Per key: two, on either API process.
      open.push(await openStream(one.url, key, id), await openStream(two.url, key, id));
      expect(open.map((s) => s.status)).toEqual([200, 200]);
      const perKey = await openStream(one.url, key, id);
      expect([perKey.status, perKey.code, perKey.retryAfter]).toEqual([429, 'STREAM_LIMIT_EXCEEDED', '30']);

      // Per organization: three, whichever keys hold them.
      open.push(await openStream(two.url, second.key, id));
      expect(open[2]!.status).toBe(200);
      const perOrg = await openStream(one.url, second.key, id);
      expect([perOrg.status, perOrg.code]).toEqual([429, 'STREAM_LIMIT_EXCEEDED']);
      const body: any = await (
        await fetch(`${two.url}/v1/responses/${id}?stream=true`, { headers: { authorization: `Bearer ${second.key}` } })
      ).json();
      expect(body.error.message).toMatch(/At most 3 event streams may be open per organization/);

      // The open streams were not touched: each still carries data.
      for (const s of open) expect(await flows(s)).toBe(true);

      // Another organization is not affected.
      const other = await createOrgWithKey(one.db);
      const otherId = await addGeneration(
        one.db,
        Catalog.load(),
        { orgId: other.org.id, keyId: other.keyId },
        {
          engine: 'lottie',
          model: 'gpt-4o-mini',
          status: 'queued',
          createdAt: new Date(),
        },
      );
      const elsewhere = await openStream(two.url, other.key, otherId);
      expect(elsewhere.status).toBe(200);
      elsewhere.abort();

      // A closed stream gives its slot back (the lease is deleted once the server sees the close).
      open.shift()!.abort();
      let again: Open;
      for (;;) {
        again = await openStream(one.url, key, id);
        if (again.status === 200) break;
        expect(again.code).toBe('STREAM_LIMIT_EXCEEDED');
        await new Promise((r) => setTimeout(r, 100));
      }
      open.push(again);
    } finally {
      for (const s of open) s.abort();
    }
  });
});
