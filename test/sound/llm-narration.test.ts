// An LLM provider's narration (issue 41): with a voice, the composition call asks the LLM for narration
// timed to its scenes, in the place its engine gives; the lines it writes are what the voice says and
// the captions show, each from its time. A composition without narration is read from the prompt.
// Real stack, a fake OpenAI-protocol server, the embedded voice, real renders.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEngine } from '../../src/engines/index.js';
import { FakeLlm, fenced, systemPrompt } from '../providers/support/fakeLlm.js';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';
import { vttCues } from './support.js';

const llm = new FakeLlm('openai', 'sk-narration');
let stack: TestStack;
let dir: string;
let key: string;

beforeAll(async () => {
  await llm.start();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'narration-llm-'));
  const file = path.join(dir, 'providers.json');
  const fake = {
    protocol: 'openai',
    base_url: llm.baseUrl,
    api_key_env: 'FAKE_NARRATION_KEY',
    timeout_seconds: 20,
    models: { 'gpt-4o-mini': 'fake-mini' },
  };
  fs.writeFileSync(file, JSON.stringify({ providers: { fake } }));
  stack = await startStack({ PROVIDERS_FILE: file, FAKE_NARRATION_KEY: llm.apiKey });
  key = (await createOrgWithKey(stack.db)).key;
});

afterAll(async () => {
  await stack?.close();
  await llm.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const PROMPT = 'Casa Lupa bakes fresh bread every morning. Order online at casalupa.example.';
const LINES = [
  { at: 0.3, text: 'Casa Lupa bakes fresh bread every morning.' },
  { at: 3, text: 'Order online at casalupa.example.' },
];
const canvas = { width: 240, height: 426 };

/** What a model following the prompt writes: the offline composer's composition, with or without narration. */
function composition(engine: 'lottie' | 'hyperframes', narrated: boolean): string {
  const source = getEngine(engine).composeOffline({
    prompt: PROMPT,
    instructions: null,
    durationSeconds: 6,
    assets: [],
    ...canvas,
  });
  if (!narrated) return source;
  if (engine === 'lottie') return JSON.stringify({ ...JSON.parse(source), narration: LINES });
  return source.replace(
    '</body>',
    `<script type="application/json" id="narration">${JSON.stringify(LINES)}</script></body>`,
  );
}

async function generate(engine: 'lottie' | 'hyperframes', narrated: boolean) {
  llm.script({
    reply: fenced(composition(engine, narrated), engine === 'lottie' ? 'json' : 'html'),
    usage: { input: 2_000, output: 3_000 },
  });
  const created = await api(stack.url, '/v1/responses', {
    method: 'POST',
    key,
    json: {
      model: 'gpt-4o-mini',
      engine,
      ...canvas,
      duration_seconds: 6,
      provider: { order: ['fake'] },
      input: PROMPT,
      audio: { voice: 'auto', music: 'none', captions: 'sidecar' },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const done = (await waitForTerminal(stack.url, key, created.body.id, 300_000)).body;
  expect(done.status, JSON.stringify(done.error)).toBe('completed');
  return done;
}

describe("an LLM's narration", () => {
  for (const engine of ['lottie', 'hyperframes'] as const) {
    it(
      `${engine}: asked for in the composition call, said line by line from each line's time`,
      { timeout: 400_000 },
      async () => {
        const done = await generate(engine, true);
        const system = systemPrompt(llm.requests.at(-1)!.body);
        expect(system).toContain('- Voice-over: a voice reads the narration you write with the composition');
        expect(system).toContain(getEngine(engine).llm.narrationPlace!);
        const cues = vttCues(await (await fetch(done.captions_url.url)).text());
        expect(cues.map((c) => c.text)).toEqual(LINES.map((l) => l.text));
        // Each line starts at its time (the voice's own onset a little after), not before.
        for (const [i, line] of LINES.entries()) {
          expect(cues[i]!.start).toBeGreaterThanOrEqual(line.at);
          expect(cues[i]!.start).toBeLessThan(line.at + 1);
        }
        // Billed: one output token per character said.
        expect(done.usage.output_tokens).toBeGreaterThanOrEqual(LINES.reduce((n, l) => n + l.text.length, 0));
      },
    );
  }

  it('a composition without narration: the voice reads the prompt', { timeout: 400_000 }, async () => {
    const done = await generate('lottie', false);
    const cues = vttCues(await (await fetch(done.captions_url.url)).text());
    expect(cues.map((c) => c.text).join(' ')).toBe(PROMPT);
  });
});
