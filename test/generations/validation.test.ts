// Every 400 case names the bad field; application headers are stored within their bounds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/api/generations/schema.js';
import { api, createOrgWithKey, startApi, type TestApi } from '../support/stack.js';

let stack: TestApi;
let key: string;
let orgId: string;
beforeAll(async () => {
  // Media URLs on loopback pass the request check only with the test setting; no worker fetches them here.
  stack = await startApi({ OUTBOUND_UNSAFE_ALLOW_LOOPBACK: 'true' });
  const created = await createOrgWithKey(stack.db);
  ({ key } = created);
  orgId = created.org.id;
});
afterAll(() => stack.close());

const okResponses = { model: 'gpt-4o-mini', input: 'A short clip', width: 160, height: 284 };
const okChat = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'A short clip' }], width: 160, height: 284 };
const long = (n: number) => 'x'.repeat(n);

const responsesCases: Array<[string, Record<string, unknown>, string]> = [
  ['missing model', { input: 'hi' }, 'model'],
  ['empty model', { ...okResponses, model: '' }, 'model'],
  ['model not a string', { ...okResponses, model: 42 }, 'model'],
  ['unknown model', { ...okResponses, model: 'gpt-0' }, 'model'],
  ['engine slug as model', { ...okResponses, model: 'hyperframes' }, 'model'],
  ['missing input', { model: 'gpt-4o-mini' }, 'input'],
  ['empty input string', { ...okResponses, input: '' }, 'input'],
  ['empty input array', { ...okResponses, input: [] }, 'input'],
  ['input only whitespace', { ...okResponses, input: '   ' }, 'input'],
  ['input of wrong type', { ...okResponses, input: 12 }, 'input'],
  ['bad role', { ...okResponses, input: [{ role: 'robot', content: 'x' }] }, 'input.0.role'],
  [
    'unknown part type',
    { ...okResponses, input: [{ role: 'user', content: [{ type: 'input_hologram', data: 'x' }] }] },
    'input.0.content.0.type',
  ],
  [
    'input_audio part without its input_audio object',
    { ...okResponses, input: [{ role: 'user', content: [{ type: 'input_audio', data: 'x' }] }] },
    'input.0.content.0.input_audio',
  ],
  [
    'chat part name in Responses shape',
    { ...okResponses, input: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] },
    'input.0.content.0.type',
  ],
  [
    'image without url',
    {
      ...okResponses,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'x' },
            { type: 'input_image', image_url: {} },
          ],
        },
      ],
    },
    'input.0.content.1.image_url.url',
  ],
  [
    'image with a non-http url',
    {
      ...okResponses,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'x' },
            { type: 'input_image', image_url: { url: 'file:///etc/passwd' } },
          ],
        },
      ],
    },
    'input.0.content.1.image_url.url',
  ],
  [
    'text part too long',
    {
      ...okResponses,
      input: [{ role: 'user', content: [{ type: 'input_text', text: long(LIMITS.maxTextChars + 1) }] }],
    },
    'input.0.content.0.text',
  ],
  ['input string too long', { ...okResponses, input: long(LIMITS.maxTextChars + 1) }, 'input'],
  [
    'too many messages',
    { ...okResponses, input: Array.from({ length: LIMITS.maxMessages + 1 }, () => ({ role: 'user', content: 'x' })) },
    'input',
  ],
  [
    'too many parts',
    {
      ...okResponses,
      input: [
        {
          role: 'user',
          content: Array.from({ length: LIMITS.maxPartsPerMessage + 1 }, () => ({ type: 'input_text', text: 'x' })),
        },
      ],
    },
    'input.0.content',
  ],
  [
    'too many images across messages',
    {
      ...okResponses,
      input: [0, 1].map(() => ({
        role: 'user',
        content: [
          { type: 'input_text', text: 'x' },
          ...Array.from({ length: LIMITS.maxMediaParts / 2 + 1 }, () => ({
            type: 'input_image',
            image_url: 'https://127.0.0.1/a.png',
          })),
        ],
      })),
    },
    'input',
  ],
  [
    'total text too long',
    { ...okResponses, input: [1, 2, 3].map(() => ({ role: 'user', content: long(LIMITS.maxTextChars) })) },
    'input',
  ],
  ['instructions too long', { ...okResponses, instructions: long(LIMITS.maxTextChars + 1) }, 'instructions'],
  ['bad engine', { ...okResponses, engine: 'blender' }, 'engine'],
  ['width not a number', { ...okResponses, width: 'wide' }, 'width'],
  ['negative width', { ...okResponses, width: -160 }, 'width'],
  ['fractional height', { ...okResponses, height: 10.5 }, 'height'],
  ['bad aspect ratio', { model: 'gpt-4o-mini', input: 'x', aspect_ratio: 'wide' }, 'aspect_ratio'],
  ['expand_prompt not boolean', { ...okResponses, expand_prompt: 'yes' }, 'expand_prompt'],
  ['provider.order not an array', { ...okResponses, provider: { order: 'local' } }, 'provider.order'],
  ['provider.order empty', { ...okResponses, provider: { order: [] } }, 'provider.order'],
  ['webhook_url not https', { ...okResponses, webhook_url: 'http://example.com/hook' }, 'webhook_url'],
  ['webhook_url not a URL', { ...okResponses, webhook_url: 'hook me' }, 'webhook_url'],
  ['unknown field (a misspelt duration)', { ...okResponses, duration: 10 }, 'duration'],
  ['duration_seconds below 1', { ...okResponses, duration_seconds: 0.5 }, 'duration_seconds'],
  ['duration_seconds above 60', { ...okResponses, duration_seconds: 61 }, 'duration_seconds'],
  ['duration_seconds not a number', { ...okResponses, duration_seconds: '10' }, 'duration_seconds'],
  // PostgreSQL cannot store NUL or an unpaired surrogate: refused with the field named, never a 500.
  ['NUL in webhook_url', { ...okResponses, webhook_url: 'https://hooks.example.com/\u0000' }, 'webhook_url'],
  ['lone surrogate in webhook_url', { ...okResponses, webhook_url: 'https://hooks.example.com/\ud800' }, 'webhook_url'],
  [
    'NUL in image_url',
    {
      ...okResponses,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'x' },
            { type: 'input_image', image_url: 'https://127.0.0.1/a\u0000.png' },
          ],
        },
      ],
    },
    'input.0.content.1.image_url',
  ],
  [
    'lone surrogate in video_url',
    {
      ...okResponses,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'x' },
            { type: 'input_video', video_url: { url: 'https://127.0.0.1/\ud800.mp4' } },
          ],
        },
      ],
    },
    'input.0.content.1.video_url.url',
  ],
];

describe('POST /v1/responses validation', () => {
  for (const [name, body, param] of responsesCases) {
    it(`400 naming ${param}: ${name}`, async () => {
      const res = await api(stack.url, '/v1/responses', { method: 'POST', key, json: body });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({ code: expect.any(String), message: expect.any(String), param });
      expect(res.body.error.message.length).toBeGreaterThan(5);
    });
  }

  it('rejects a body that is not JSON, and a JSON array, with 400', async () => {
    const bad = await api(stack.url, '/v1/responses', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_json');
    const arr = await api(stack.url, '/v1/responses', { method: 'POST', key, json: [1, 2] });
    expect(arr.status).toBe(400);
    const text = await api(stack.url, '/v1/responses', {
      method: 'POST',
      key,
      headers: { 'content-type': 'text/plain' },
      body: 'model=x',
    });
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe('unsupported_media_type');
  });

  it('rejects a body over 1 MiB with 413', async () => {
    const res = await api(stack.url, '/v1/responses', {
      method: 'POST',
      key,
      json: { ...okResponses, pad: long(1024 * 1024 + 10) },
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('request_too_large');
  });

  it('writes nothing for a rejected request', async () => {
    // Counted for this test's organization: other test files create generations in the same database meanwhile.
    const count = 'SELECT count(*)::int AS n FROM generations WHERE organization_id = $1';
    const { rows: before } = await stack.db.query(count, [orgId]);
    await api(stack.url, '/v1/responses', { method: 'POST', key, json: { ...okResponses, model: 'nope' } });
    const { rows: after } = await stack.db.query(count, [orgId]);
    expect(after[0].n).toBe(before[0].n);
  });
});

describe('POST /v1/chat/completions validation', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['missing messages', { model: 'gpt-4o-mini' }, 'messages'],
    ['empty messages', { ...okChat, messages: [] }, 'messages'],
    ['only a system message', { ...okChat, messages: [{ role: 'system', content: 'x' }] }, 'messages'],
    [
      'Responses part name in Chat shape',
      { ...okChat, messages: [{ role: 'user', content: [{ type: 'input_text', text: 'x' }] }] },
      'messages.0.content.0.type',
    ],
    ['bad aspectRatio', { ...okChat, width: undefined, aspectRatio: '16x9' }, 'aspectRatio'],
    ['unknown model', { ...okChat, model: 'nope' }, 'model'],
    ['unknown field', { ...okChat, temperature: 0.2 }, 'temperature'],
    [
      'NUL in image_url',
      {
        ...okChat,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'x' },
              { type: 'image_url', image_url: { url: 'https://127.0.0.1/\u0000' } },
            ],
          },
        ],
      },
      'messages.0.content.1.image_url.url',
    ],
    [
      'lone surrogate in video_url',
      {
        ...okChat,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'x' },
              { type: 'video_url', video_url: 'https://127.0.0.1/\udfff' },
            ],
          },
        ],
      },
      'messages.0.content.1.video_url',
    ],
  ];
  for (const [name, body, param] of cases) {
    it(`400 naming ${param}: ${name}`, async () => {
      const res = await api(stack.url, '/v1/chat/completions', { method: 'POST', key, json: body });
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe(param);
    });
  }
});

describe('request mapping', () => {
  async function stored(id: string) {
    return (await stack.db.query('SELECT * FROM generations WHERE id = $1', [id])).rows[0];
  }

  it('maps aspect_ratio / aspectRatio, auto engine, system messages and image parts into one request', async () => {
    const r = await api(stack.url, '/v1/responses', {
      method: 'POST',
      key,
      json: {
        model: 'gpt-4o-mini',
        engine: 'auto',
        aspect_ratio: '16:9',
        width: 640,
        instructions: 'Be bold',
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'A spinning logo' },
              { type: 'input_image', image_url: 'https://127.0.0.1/a.png' },
            ],
          },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.engine).toBe('lottie'); // "logo" → auto picks lottie
    const row = await stored(r.body.id);
    expect(row.request).toMatchObject({
      width: 640,
      height: 360,
      aspect_ratio: '16:9',
      engine_requested: 'auto',
      instructions: 'Be bold',
    });
    expect(row.request.messages[0].content[1]).toEqual({ type: 'image', url: 'https://127.0.0.1/a.png' });

    const c = await api(stack.url, '/v1/chat/completions', {
      method: 'POST',
      key,
      json: {
        model: 'gpt-4o-mini',
        aspectRatio: '1:1',
        height: 500,
        messages: [
          { role: 'system', content: 'Be bold' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'A city' },
              { type: 'image_url', image_url: { url: 'https://127.0.0.1/b.png' } },
            ],
          },
        ],
      },
    });
    expect(c.status).toBe(200);
    expect(c.body.engine).toBe('hyperframes');
    const crow = await stored(c.body.id);
    expect(crow.request).toMatchObject({ width: 500, height: 500, aspect_ratio: '1:1', instructions: 'Be bold' });
    expect(crow.request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'A city' },
          { type: 'image', url: 'https://127.0.0.1/b.png' },
        ],
      },
    ]);
    // Defaults: 1080×1920, engine hyperframes.
    const d = await api(stack.url, '/v1/responses', {
      method: 'POST',
      key,
      json: { model: 'gpt-4o-mini', input: 'x' },
    });
    expect((await stored(d.body.id)).request).toMatchObject({ width: 1080, height: 1920, engine: 'hyperframes' });
  });

  it('takes optional fields sent as null (as typed SDKs send them) for absent, in both shapes', async () => {
    const nulls = { webhook_url: null, instructions: null, width: null, height: null, engine: null };
    const responses = await api(stack.url, '/v1/responses', {
      method: 'POST',
      key,
      json: { model: 'gpt-4o-mini', input: 'A kite', ...nulls, aspect_ratio: null },
    });
    const chat = await api(stack.url, '/v1/chat/completions', {
      method: 'POST',
      key,
      json: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'A kite' }], ...nulls, aspectRatio: null },
    });
    for (const res of [responses, chat]) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const row = await stored(res.body.id);
      expect(row.webhook_url).toBeNull();
      // The defaults, exactly as when the fields are left out.
      expect(row.request).toMatchObject({
        engine: 'hyperframes',
        width: 1080,
        height: 1920,
        instructions: null,
        aspect_ratio: null,
        webhook_url: null,
      });
    }
  });

  it(
    'stores application headers (aliases too) within their bounds; what cannot be kept is dropped or trimmed with a ' +
      'warning, never a 400',
    async () => {
      const create = (headers: Record<string, string>) =>
        api(stack.url, '/v1/responses', { method: 'POST', key, json: okResponses, headers });
      const a = await create({
        'X-Application-Name': 'n'.repeat(300),
        Referer: 'https://app.example.com/page',
        // Control characters that can travel in a header value (TAB, C1) are stripped.
        'X-Service-Title': 'My\t App\u0085 ' + 't'.repeat(300),
      });
      expect(a.status).toBe(200);
      const row = await stored(a.body.id);
      expect(row.app_name).toBe('n'.repeat(256));
      expect(row.app_referer).toBe('https://app.example.com/page');
      expect(row.app_title).toBe(('My App ' + 't'.repeat(300)).slice(0, 256));
      expect(row.app_title).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(a.headers.get('x-attribution-warning')).toBe(
        'X-Application-Name cut to 256 characters; X-Service-Title control characters removed; ' +
          'X-Service-Title cut to 256 characters',
      );

      const b = await create({
        'X-App-Name': 'alias',
        'HTTP-Referer': 'http://localhost:3000',
        'X-Title': 'Local dev',
      });
      expect(await stored(b.body.id)).toMatchObject({
        app_name: 'alias',
        app_referer: 'http://localhost:3000',
        app_title: 'Local dev',
      });
      expect(b.headers.get('x-attribution-warning')).toBeNull();

      const none = await create({});
      expect(await stored(none.body.id)).toMatchObject({ app_name: null, app_referer: null, app_title: null });

      // A Referer that is not an http(s) URL, or is too long, is dropped; the generation proceeds.
      for (const [referer, why] of [
        ['ftp://example.org/x', 'not an http or https URL'],
        ['not a url', 'not an http or https URL'],
        ['https://app.example.com/' + 'p'.repeat(3000), 'longer than 2048 characters'],
      ]) {
        const dropped = await create({ Referer: referer!, 'X-Title': 'Kept' });
        expect(dropped.status).toBe(200);
        expect(dropped.headers.get('x-attribution-warning')).toBe(`Referer dropped: ${why}`);
        expect(await stored(dropped.body.id)).toMatchObject({ app_referer: null, app_title: 'Kept' });
      }
      // A title of control characters only is dropped altogether.
      const blank = await create({ 'X-Title': '\t\u0085' });
      expect(blank.status).toBe(200);
      expect(blank.headers.get('x-attribution-warning')).toBe('X-Title control characters removed');
      expect((await stored(blank.body.id)).app_title).toBeNull();
    },
  );
});
