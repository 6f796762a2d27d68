// The embedded composer through the API (issue 30): a Spanish "anuncio de 8 segundos" lasts 8 s and is
// not titled by its own request; a four-step how-to shows its four steps whole; a countdown shows its
// numbers in order, then its payoff whole. Real generations (default `local` provider), real renders;
// the on-screen text is read from the stored composition (the generation's artifact).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hyperframesTexts, lottieTexts, type Composition } from '../storyboard/corpus.js';
import { probeUrl } from '../support/media.js';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';

let stack: TestStack;
let key: string;

beforeAll(async () => {
  stack = await startStack();
  ({ key } = await createOrgWithKey(stack.db));
});
afterAll(() => stack?.close());

async function generate(engine: 'lottie' | 'hyperframes', input: string) {
  const created = await api(stack.url, '/v1/responses', {
    method: 'POST',
    key,
    json: { model: 'gpt-4o-mini', engine, input, width: 180, height: 320 },
  });
  expect(created.status).toBe(200);
  const done = (await waitForTerminal(stack.url, key, created.body.id, 180_000)).body;
  expect(done.status, JSON.stringify(done.error)).toBe('completed');
  const artifact = await (await fetch(done.artifact_url.url)).text();
  const texts: Composition = engine === 'lottie' ? lottieTexts(artifact) : hyperframesTexts(artifact);
  return { done, texts };
}

const textsOf = (c: Composition, scene?: number) =>
  c.texts.filter((t) => scene === undefined || t.scene === scene).map((t) => t.text);
const upper = (s: string) => s.toLocaleUpperCase('es');

describe('the embedded composer through the API', () => {
  it(
    'a Spanish "anuncio de 8 segundos" lasts 8 s, its title the bakery, not the request',
    { timeout: 240_000 },
    async () => {
      const { done, texts } = await generate(
        'lottie',
        'Un anuncio de 8 segundos para una panadería artesanal en Sevilla. Pan de masa madre recién hecho cada mañana.',
      );
      expect(Math.abs((await probeUrl(done.output_video_url)).duration - 8)).toBeLessThanOrEqual(0.1);
      const title = textsOf(texts, 0).join(' ');
      // (In capitals when the look sets headlines so.)
      expect(['Una panadería artesanal en Sevilla', upper('Una panadería artesanal en Sevilla')]).toContain(title);
    },
  );

  it('a four-step how-to shows the four step texts whole, in order', { timeout: 240_000 }, async () => {
    const steps = ['Unplug it', 'Wait 30 seconds', 'Plug it back in', 'Wait for the light to turn green'];
    const { done, texts } = await generate(
      'hyperframes',
      `How to reset your router: 1. ${steps[0]}. 2. ${steps[1]}. 3. ${steps[2]}. 4. ${steps[3]}.`,
    );
    const shown = textsOf(texts);
    const at = steps.map((s) => shown.indexOf(s));
    expect(
      at.every((i) => i >= 0),
      JSON.stringify(shown),
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // "Wait 30 seconds" is a step, not the video's length.
    expect((await probeUrl(done.output_video_url)).duration).not.toBeCloseTo(30, 0);
  });

  it('a countdown shows its numbers in order, then the payoff line whole', { timeout: 240_000 }, async () => {
    const { texts } = await generate('lottie', '5, 4, 3, 2, 1 — Happy New Year from all of us at Casa Lupa!');
    const shown = textsOf(texts);
    expect(shown.filter((t) => /^\d$/.test(t))).toEqual(['5', '4', '3', '2', '1']);
    const payoff = 'Happy New Year from all of us at Casa Lupa!';
    expect(
      shown.some((t) => t === payoff || t === payoff.toUpperCase()),
      JSON.stringify(shown),
    ).toBe(true);
    // Never a chart of the numbers.
    expect(shown.some((t) => /^#\d/.test(t))).toBe(false);
  });
});
