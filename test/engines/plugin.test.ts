// The engine extension point, end to end: a throwaway third engine (test/engines/plugin/solid/, a
// solid colour rendered by ffmpeg alone) is registered in this process (the in-process API) and
// through ENGINE_PLUGINS in the worker, then serves a real generation through both request shapes.
// Nothing outside its folder names it; nothing outside src/engines/ names the built-in engines.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerEngine } from '../../src/engines/index.js';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';
import { probeUrl } from '../support/media.js';
import { engine as solid } from './plugin/solid/index.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

let stack: TestStack;
let key: string;

beforeAll(async () => {
  registerEngine(solid);
  stack = await startStack({ ENGINE_PLUGINS: path.join(import.meta.dirname, 'plugin/solid/index.ts') });
  ({ key } = await createOrgWithKey(stack.db));
});
afterAll(() => stack?.close());

/** RGB of the middle pixel of the first frame. */
async function firstFrameColour(url: string): Promise<string> {
  const video = Buffer.from(await (await fetch(url)).arrayBuffer());
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-frame-')), 'v.mp4');
  try {
    fs.writeFileSync(file, video);
    const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', file, '-vf', 'crop=2:2,scale=1:1', '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
      encoding: 'buffer',
    });
    return [...(stdout as unknown as Buffer).subarray(0, 3)].map((c) => c.toString(16).padStart(2, '0')).join('');
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

describe('a plug-in engine', () => {
  it('is offered by the catalog and the OpenAPI document, priced with its premium', async () => {
    const catalog = await api(stack.url, '/v1/engines');
    const entry = catalog.body.engines.find((e: { id: string }) => e.id === 'solid');
    expect(entry.name).toBe(solid.name);
    expect(entry.supported_models[0].pricing.premium_multiplier).toBe(0.5);
    const doc = await api(stack.url, '/openapi.json');
    const [engineEnum] = doc.body.components.schemas.CreateResponseRequest.properties.engine.anyOf;
    expect(engineEnum.enum).toEqual(expect.arrayContaining(['hyperframes', 'lottie', 'solid', 'auto']));
  });

  it('renders a generation end to end (offline composer, isolated render process, storage, both views)', async () => {
    const created = await api(stack.url, '/v1/chat/completions', {
      key,
      method: 'POST',
      json: { model: 'gpt-4o-mini', engine: 'solid', messages: [{ role: 'user', content: 'A calm teal' }], width: 64, height: 48 },
    });
    expect(created.status).toBe(200);
    const done = await waitForTerminal(stack.url, key, created.body.id);
    expect(done.body).toMatchObject({ status: 'completed', engine: 'solid', provider: 'local', artifact_type: 'application/json' });
    const clip = JSON.parse(await (await fetch(done.body.artifact_url.url)).text()) as { color: string; seconds: number };
    expect(clip).toEqual(JSON.parse(solid.composeOffline({ prompt: 'A calm teal', instructions: null, durationSeconds: null, assets: [], width: 64, height: 48 })));
    const video = await probeUrl(done.body.output_video_url);
    expect(video).toMatchObject({ codec: 'h264', width: 64, height: 48 });
    expect(video.duration).toBeCloseTo(clip.seconds, 1);
    const rgb = await firstFrameColour(done.body.output_video_url);
    // H.264's YUV 4:2:0 round trip moves each channel a little.
    for (let i = 0; i < 3; i++) expect(Math.abs(parseInt(rgb.slice(2 * i, 2 * i + 2), 16) - parseInt(clip.color.slice(1 + 2 * i, 3 + 2 * i), 16))).toBeLessThan(8);
  });

  it('is chosen by `auto` for its keywords', async () => {
    const created = await api(stack.url, '/v1/responses', { key, method: 'POST', json: { model: 'gpt-4o-mini', engine: 'auto', input: 'A monochrome pause', width: 64, height: 48 } });
    expect(created.body.engine).toBe('solid');
    expect((await waitForTerminal(stack.url, key, created.body.id)).body.status).toBe('completed');
  });
});

describe('engine ids stay inside src/engines/', () => {
  it('no code outside src/engines/ names a built-in engine', async () => {
    const { stdout } = await run('git', ['grep', '--untracked', '-nIE', `['"\`](hyperframes|lottie)['"\`]`, '--', 'src', 'workflows', 'activities', ':!src/engines'], { cwd: root }).catch(
      (err: { code?: number; stdout?: string }) => (err.code === 1 ? { stdout: '' } : Promise.reject(err)),
    );
    expect(stdout).toBe('');
  });
});
