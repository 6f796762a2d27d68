// Brand kits through the API (real HTTP, PostgreSQL, storage): GET /v1/brand for any key, PUT only for
// keys with the right to manage it, every bad field a 400 naming it, the logo checked like user media
// and served back signed; and the `brand` field of both create shapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/db/apiKeys.js';
import { brandKit, errorBody } from '../../src/api/openapi/schemas.js';
import { twoColourImage } from '../support/mediaServer.js';
import { api, createOrgWithKey, startApi, type TestApi } from '../support/stack.js';

let stack: TestApi;
let key: string;
let manager: string;
let png: Buffer;

beforeAll(async () => {
  stack = await startApi();
  const created = await createOrgWithKey(stack.db);
  key = created.key;
  manager = (await createApiKey(stack.db, created.org.id, 'brand manager', { manageBrand: true })).key;
  png = twoColourImage(120, 60);
});
afterAll(() => stack?.close());

const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;
const put = (json: unknown, as = manager) => api(stack.url, '/v1/brand', { method: 'PUT', key: as, json });

function expectError(res: { status: number; body: any }, status: number, code: string, param?: string) {
  expect(res.status).toBe(status);
  errorBody.parse(res.body);
  expect(res.body.error.code).toBe(code);
  if (param) expect(res.body.error.param).toBe(param);
}

describe('GET and PUT /v1/brand', () => {
  it('answers an empty kit before one is set', async () => {
    const res = await api(stack.url, '/v1/brand', { key });
    expect(res.status).toBe(200);
    expect(brandKit.parse(res.body)).toEqual({
      object: 'brand_kit',
      colors: { background: null, text: null, accent: null },
      font: null,
      logo: null,
      logo_on_closing: true,
      contrast: { text_on_background: null, meets_wcag_aa: null },
      updated_at: null,
    });
  });

  it('stores a kit with a logo, serves it back signed, and keeps the logo when a PUT leaves it out', async () => {
    const res = await put({
      colors: { background: '#0B1F3A', text: '#ffffff', accent: '#ff7a1a' },
      font: 'serif',
      logo: dataUrl(png),
      logo_on_closing: true,
    });
    expect(res.status).toBe(200);
    const kit = brandKit.parse(res.body);
    expect(kit.colors).toEqual({ background: '#0b1f3a', text: '#ffffff', accent: '#ff7a1a' }); // lower-cased
    expect(kit.font).toBe('serif');
    expect(kit.logo).toMatchObject({ media_type: 'image/png', bytes: png.length, width: 120, height: 60 });
    expect(kit.contrast.meets_wcag_aa).toBe(true);
    expect(kit.contrast.text_on_background).toBeGreaterThan(15);
    const logo = await fetch(kit.logo!.url);
    expect(logo.status).toBe(200);
    expect(Buffer.from(await logo.arrayBuffer()).equals(png)).toBe(true);

    // Any key reads it.
    const read = await api(stack.url, '/v1/brand', { key });
    expect(brandKit.parse(read.body).colors.background).toBe('#0b1f3a');

    const again = await put({ colors: { background: '#ffffff', text: '#eeeeee' } });
    expect(again.status).toBe(200);
    const low = brandKit.parse(again.body);
    expect(low.logo).toMatchObject({ width: 120, height: 60 }); // absent logo: kept
    expect(low.font).toBeNull(); // the kit is replaced
    expect(low.contrast.meets_wcag_aa).toBe(false); // below 4.5:1: kept, but flagged
    expect(low.contrast.text_on_background).toBeLessThan(4.5);

    const removed = await put({ logo: null });
    expect(brandKit.parse(removed.body).logo).toBeNull();
  });

  it('refuses PUT from a key without the right to manage the brand (403)', async () => {
    expectError(await put({ font: 'mono' }, key), 403, 'brand_not_allowed');
    expect(brandKit.parse((await api(stack.url, '/v1/brand', { key })).body).font).not.toBe('mono');
  });

  it('answers 400 naming the field for every bad value', async () => {
    expectError(await put({ colors: { background: 'navy' } }), 400, 'invalid_request', 'colors.background');
    expectError(await put({ colors: { text: '#12345' } }), 400, 'invalid_request', 'colors.text');
    expectError(await put({ colors: { accent: 1 } }), 400, 'invalid_request', 'colors.accent');
    expectError(await put({ colors: { border: '#000000' } }), 400, 'invalid_request', 'colors.border');
    expectError(await put({ font: 'comic' }), 400, 'invalid_request', 'font');
    expectError(await put({ logo_on_closing: 'yes' }), 400, 'invalid_request', 'logo_on_closing');
    expectError(await put({ slogan: 'x' }), 400, 'invalid_request', 'slogan');
    expectError(await put({ logo: 'https://example.com/logo.png' }), 400, 'invalid_request', 'logo');
    expectError(
      await put({
        logo: `data:image/png;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')}`,
      }),
      400,
      'invalid_request',
      'logo',
    );
    expectError(await put({ logo: dataUrl(png.subarray(0, 20)) }), 400, 'invalid_request', 'logo');
    const big = await put({ logo: dataUrl(Buffer.concat([png, Buffer.alloc(520 * 1024)])) });
    expectError(big, 400, 'invalid_request', 'logo');
    expect(big.body.error.message).toContain('0.5 MiB');
  });

  it('answers 401 without a key', async () => {
    expectError(await api(stack.url, '/v1/brand', {}), 401, 'unauthorized');
    expectError(await api(stack.url, '/v1/brand', { method: 'PUT', json: { font: 'sans' } }), 401, 'unauthorized');
  });
});

describe('the brand field of a create', () => {
  const create = (path: string, brand: unknown) => {
    const prompt = 'Launch day. Visit nimbus.app';
    const body = path === '/v1/responses' ? { input: prompt } : { messages: [{ role: 'user', content: prompt }] };
    return api(stack.url, path, {
      method: 'POST',
      key,
      json: { model: 'gpt-4o-mini', engine: 'lottie', width: 160, height: 90, ...body, brand },
    });
  };
  it('answers 400 naming the field of a bad override, on both shapes', async () => {
    for (const path of ['/v1/responses', '/v1/chat/completions']) {
      expectError(
        await create(path, { colors: { background: 'red' } }),
        400,
        'invalid_request',
        'brand.colors.background',
      );
      expectError(await create(path, { font: 'gothic' }), 400, 'invalid_request', 'brand.font');
      expectError(await create(path, { logo: 'data:' }), 400, 'invalid_request', 'brand.logo');
      expectError(await create(path, 'no'), 400, 'invalid_request', 'brand');
    }
  });
});
