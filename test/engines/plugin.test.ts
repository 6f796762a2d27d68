// The engine extension point, end to end: a throwaway third engine (test/engines/plugin/solid/, a
// solid colour rendered by ffmpeg alone) is registered in this process (the in-process API) and
// through ENGINE_PLUGINS in the worker, then serves a real generation through both request shapes,
// with a setting of its own read from the worker's environment. Nothing outside its folder names it;
// nothing outside src/engines/ names the built-in engines or their settings. It also plays the bug
// no test can foresee: an unexpected crash inside a step reaches clients as a fixed internal_error.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { getWebhookSettings } from '../../src/db/webhooks.js';
import { engineVariables, getEngine, registerEngine, renderTools } from '../../src/engines/index.js';
import {
  api,
  createOrgWithKey,
  startStack,
  startWorkerProcess,
  testEnv,
  waitForTerminal,
  type TestStack,
} from '../support/stack.js';
import { probeUrl } from '../support/media.js';
import {
  makeSelfSignedCert,
  startReceiver,
  verifyDelivery,
  type Receiver,
  type TlsFiles,
} from '../webhooks/support/receiver.js';
import { engine as solid, INTERNAL_CRASH_MESSAGE } from './plugin/solid/index.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

const PLUGIN = path.join(import.meta.dirname, 'plugin/solid/index.ts');
/** The plug-in's own setting, as an operator sets it in the worker's environment. */
const FRAME_RATE = 12;

let stack: TestStack;
let key: string;
let orgId: string;
let cert: TlsFiles;
let receiver: Receiver;

beforeAll(async () => {
  registerEngine(solid);
  cert = makeSelfSignedCert();
  receiver = await startReceiver(cert);
  stack = await startStack({
    ENGINE_PLUGINS: PLUGIN,
    SOLID_FRAME_RATE: String(FRAME_RATE),
    OUTBOUND_UNSAFE_ALLOW_LOOPBACK: 'true',
    OUTBOUND_UNSAFE_CA_FILE: cert.certFile,
  });
  ({
    key,
    org: { id: orgId },
  } = await createOrgWithKey(stack.db));
});
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
  if (cert) fs.rmSync(cert.dir, { recursive: true, force: true });
});

/** RGB of the middle pixel of the first frame. */
async function firstFrameColour(url: string): Promise<string> {
  const video = Buffer.from(await (await fetch(url)).arrayBuffer());
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-frame-')), 'v.mp4');
  try {
    fs.writeFileSync(file, video);
    const { stdout } = await run(
      'ffmpeg',
      [
        '-v',
        'error',
        '-i',
        file,
        '-vf',
        'crop=2:2,scale=1:1',
        '-frames:v',
        '1',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-',
      ],
      {
        encoding: 'buffer',
      },
    );
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
      json: {
        model: 'gpt-4o-mini',
        engine: 'solid',
        messages: [{ role: 'user', content: 'A calm teal' }],
        width: 64,
        height: 48,
      },
    });
    expect(created.status).toBe(200);
    const done = await waitForTerminal(stack.url, key, created.body.id);
    expect(done.body).toMatchObject({
      status: 'completed',
      engine: 'solid',
      provider: 'local',
      artifact_type: 'application/json',
    });
    const clip = JSON.parse(await (await fetch(done.body.artifact_url.url)).text()) as {
      color: string;
      seconds: number;
    };
    expect(clip).toEqual(
      JSON.parse(
        solid.composeOffline({
          prompt: 'A calm teal',
          instructions: null,
          durationSeconds: null,
          assets: [],
          width: 64,
          height: 48,
        }),
      ),
    );
    const video = await probeUrl(done.body.output_video_url);
    expect(video).toMatchObject({ codec: 'h264', width: 64, height: 48 });
    expect(video.duration).toBeCloseTo(clip.seconds, 1);
    // Its own setting, SOLID_FRAME_RATE, came from the worker's environment through the config loader.
    expect(video.frames).toBe(clip.seconds * FRAME_RATE);
    const rgb = await firstFrameColour(done.body.output_video_url);
    // H.264's YUV 4:2:0 round trip moves each channel a little.
    for (let i = 0; i < 3; i++)
      expect(
        Math.abs(parseInt(rgb.slice(2 * i, 2 * i + 2), 16) - parseInt(clip.color.slice(1 + 2 * i, 3 + 2 * i), 16)),
      ).toBeLessThan(8);
  });

  it('is chosen by `auto` for its keywords', async () => {
    const created = await api(stack.url, '/v1/responses', {
      key,
      method: 'POST',
      json: { model: 'gpt-4o-mini', engine: 'auto', input: 'A monochrome pause', width: 64, height: 48 },
    });
    expect(created.body.engine).toBe('solid');
    expect((await waitForTerminal(stack.url, key, created.body.id)).body.status).toBe('completed');
  });
});

describe("a plug-in engine's own setting", () => {
  it('is a variable the service reads, and a bad value stops the worker naming it', async () => {
    expect(engineVariables()).toContain('SOLID_FRAME_RATE');
    expect(renderTools(loadConfig({ SOLID_FRAME_RATE: '7' })).engineSettings(solid)).toEqual({ frameRate: 7 });
    const worker = startWorkerProcess(
      testEnv({ ENGINE_PLUGINS: PLUGIN, SOLID_FRAME_RATE: 'fast', TEMPORAL_NAMESPACE: stack.namespace }),
    );
    const code = await new Promise((resolve) => worker.child.once('exit', resolve));
    expect(code).not.toBe(0);
    expect(worker.output()).toMatch(/SOLID_FRAME_RATE/);
  });
});

describe('an unexpected crash inside a step', () => {
  it(
    'is internal_error with a fixed message for clients (API answers and webhook); ' +
      'the cause is in the worker log with the generation id',
    async () => {
      // Completed events are on by default.
      const created = await api(stack.url, '/v1/responses', {
        key,
        method: 'POST',
        json: {
          model: 'gpt-4o-mini',
          engine: 'solid',
          input: 'A crash course in teal',
          width: 64,
          height: 48,
          webhook_url: receiver.url('/crash'),
        },
      });
      expect(created.status).toBe(200);
      const id = created.body.id as string;
      const message = `The generation failed on an internal error; its cause is in the service's logs under ${id}`;
      const done = await waitForTerminal(stack.url, key, id);
      expect(done.body).toMatchObject({ status: 'failed', error: { code: 'internal_error', message } });
      const chat = await api(stack.url, `/v1/chat/completions/${id}`, { key });
      expect(chat.body.error).toEqual({ type: 'internal_error', message });
      const [delivery] = await receiver.waitFor(1, '/crash');
      const secret = (await getWebhookSettings(stack.db, orgId))!.signing_secret;
      expect(verifyDelivery(secret, delivery!)).toMatchObject({
        type: 'video.generation.completed',
        data: { object: { id, status: 'failed', error_message: message } },
      });
      for (const answer of [JSON.stringify(done.body), JSON.stringify(chat.body), delivery!.body])
        expect(answer).not.toContain('/srv');
      // The operator's side: the cause with the generation id, on one log line of the worker.
      const line = stack.worker
        .output()
        .split('\n')
        .find((l) => l.includes(INTERNAL_CRASH_MESSAGE) && l.includes('internal error'));
      expect(line).toBeDefined();
      expect(JSON.parse(line!)).toMatchObject({
        level: 50,
        generation_id: id,
        cause: `Error: ${INTERNAL_CRASH_MESSAGE}`,
      });
    },
  );
});

describe('engines stay inside src/engines/', () => {
  const outsideEngines = async (pattern: string) =>
    (
      await run(
        'git',
        ['grep', '--untracked', '-nIE', pattern, '--', 'src', 'workflows', 'activities', ':!src/engines'],
        { cwd: root },
      ).catch((err: { code?: number; stdout?: string }) => (err.code === 1 ? { stdout: '' } : Promise.reject(err)))
    ).stdout;

  it('no code outside src/engines/ names a built-in engine', async () => {
    expect(await outsideEngines(`['"\`](hyperframes|lottie)['"\`]`)).toBe('');
  });

  it("no code outside src/engines/ names an engine's own setting: its variables or its settings fields", async () => {
    const names = ['hyperframes', 'lottie'].flatMap((id) => {
      const engine = getEngine(id);
      const variables = Object.keys(engine.settings?.variables.shape ?? {});
      // Compound field names (chromePath…) are the engine's; plain words (quality, workers) are everyone's.
      const fields = Object.keys(renderTools(loadConfig({})).engineSettings(engine) as object).filter((f) =>
        /[A-Z0-9]/.test(f),
      );
      return [...variables, ...fields];
    });
    expect(names).toEqual(expect.arrayContaining(['CHROME_PATH', 'LOTTIE_X264_PRESET', 'chromePath', 'x264Preset']));
    expect(await outsideEngines(`\\b(${names.join('|')})\\b`)).toBe('');
  });
});
