// Storyboard requests through the API (issue 32), real generations and real renders on small canvases:
// a storyboard with every scene kind renders on both engines and its artifact shows exactly the
// storyboard's text; variables fill every placeholder (a missing one is a 400 naming it); invalid
// storyboards are 400s naming the path; a prompt-planned generation links its storyboard, which sent
// back unchanged makes the byte-identical composition, and with one counter changed differs only there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillVariables, STORYBOARD_EXAMPLE, storyboardSchema, toStoryboard } from '../../src/storyboard/schema.js';
import { sceneTexts } from '../../src/storyboard/types.js';
import { fold, hyperframesTexts, lottieTexts, type Composition } from '../storyboard/corpus.js';
import { probeUrl } from '../support/media.js';
import { twoColourImage } from '../support/mediaServer.js';
import { createTestMember, DashboardClient } from '../dashboard/support.js';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';

let stack: TestStack;
let key: string;
let orgId: string;

beforeAll(async () => {
  stack = await startStack();
  const created = await createOrgWithKey(stack.db);
  key = created.key;
  orgId = created.org.id;
});
afterAll(() => stack?.close());

type Engine = 'lottie' | 'hyperframes';
const canvas = { width: 180, height: 320 };
const image = `data:image/png;base64,${twoColourImage(90, 120).toString('base64')}`;

/**
 * Every scene kind (the reference's example, its title and an image scene showing the picture), each 0.6 s: short
 * renders.
 */
const everyKind = {
  ...STORYBOARD_EXAMPLE,
  scenes: [...STORYBOARD_EXAMPLE.scenes, { kind: 'image', asset: 'image-1', caption: 'Made in Porto' }].map((s, i) => ({
    ...s,
    ...(i === 0 && { image: 'image-1' }),
    seconds: 0.6,
  })),
};
const company = { company: 'Casa Lupa' };

const textsOf = (engine: Engine, artifact: string): Composition =>
  engine === 'lottie' ? lottieTexts(artifact) : hyperframesTexts(artifact);
/**
 * The texts a composition shows, scene by scene, as sorted lists (engines differ in the order they draw a scene's
 * parts).
 */
const byScene = (c: Composition) => {
  const scenes: string[][] = [];
  for (const t of c.texts) if (t.text) (scenes[t.scene] ??= []).push(t.text);
  return Array.from(scenes, (s) => (s ?? []).sort());
};
/** What a storyboard (public form) shows, scene by scene: the internal storyboard's texts. */
const expectedTexts = (sb: unknown) =>
  toStoryboard(storyboardSchema.parse(sb), { image: (ref) => `${ref}.png` }).scenes.map((s) =>
    sceneTexts(s).filter(Boolean).sort(),
  );
/**
 * Words only (the engines' ornaments, a quote's “ and an attribution's —, are no text of the storyboard); texts set
 * on one line with a middle dot between them (a comparison's features in Lottie) count one by one.
 */
const words = (scenes: string[][]) =>
  scenes.map((texts) =>
    texts
      .flatMap((t) => t.split(' · '))
      .map(fold)
      .filter(Boolean)
      .sort(),
  );

async function create(json: Record<string, unknown>) {
  return api(stack.url, '/v1/responses', { method: 'POST', key, json: { model: 'gpt-4o-mini', ...canvas, ...json } });
}

async function completed(json: Record<string, unknown>) {
  const created = await create(json);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const done = (await waitForTerminal(stack.url, key, created.body.id, 240_000)).body;
  expect(done.status, JSON.stringify(done.error)).toBe('completed');
  const artifact = await (await fetch(done.artifact_url.url)).text();
  return { done, artifact };
}

describe('storyboard requests', () => {
  for (const engine of ['lottie', 'hyperframes'] as const) {
    it(
      `every scene kind renders on ${engine}; the artifact shows exactly the storyboard's text; billed as tokens`,
      { timeout: 300_000 },
      async () => {
        const { done, artifact } = await completed({
          engine,
          storyboard: everyKind,
          variables: company,
          input: [{ role: 'user', content: [{ type: 'input_image', image_url: image }] }],
        });
        const filled = fillVariables(everyKind, company);
        expect(JSON.stringify(filled)).toContain('Casa Lupa');
        expect(words(byScene(textsOf(engine, artifact)))).toEqual(words(expectedTexts(filled)));
        // The image scene and the title show the request's picture.
        expect(artifact).toContain('image-1.png');
        expect(done.provider).toBe('storyboard');
        expect(done.usage.input_tokens).toBeGreaterThan(0);
        expect(done.usage.output_tokens).toBeGreaterThan(0);
        expect(done.usage.cost_usd).toBeGreaterThan(0);
        expect((await probeUrl(done.output_video_url)).duration).toBeCloseTo(0.6 * everyKind.scenes.length, 1);
        // The storyboard it drew is linked, signed, as sent.
        const linked = await (await fetch(done.storyboard_url.url)).json();
        expect(linked).toEqual(storyboardSchema.parse(filled));
      },
    );
  }

  it(
    'variables fill every placeholder (chat shape); a missing one is a 400 naming it',
    { timeout: 300_000 },
    async () => {
      const storyboard = {
        scenes: [
          { kind: 'title', title: 'Hello {{name}}', seconds: 1 },
          { kind: 'counter', value: '{{points}}', label: 'points for {{ name }}', seconds: 1 },
          { kind: 'cta', text: 'See you on {{date}}', date: '{{date}}', seconds: 1 },
        ],
      };
      const variables = { name: 'Ana', points: '1,250', date: 'Friday' };
      const created = await api(stack.url, '/v1/chat/completions', {
        method: 'POST',
        key,
        json: { model: 'gpt-4o-mini', engine: 'lottie', ...canvas, storyboard, variables },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const done = (await waitForTerminal(stack.url, key, created.body.id, 240_000, '/v1/chat/completions')).body;
      expect(done.status).toBe('completed');
      const shown = byScene(lottieTexts(await (await fetch(done.artifact_url.url)).text()));
      expect(shown).toEqual([['Hello Ana'], ['1,250', 'points for Ana'], ['Friday', 'See you on Friday']]);

      const missing = await create({ engine: 'lottie', storyboard, variables: { name: 'Ana', points: 3 } });
      expect(missing.status).toBe(400);
      expect(missing.body.error.param).toBe('variables.date');
      expect(missing.body.error.message).toContain('{{date}}');
    },
  );

  it('invalid storyboards are 400s naming the path', async () => {
    const cases: [unknown, string][] = [
      [
        {
          scenes: [
            { kind: 'title', title: 'A' },
            { kind: 'statement', text: 'B' },
            { kind: 'counter', value: 'lots', label: 'x' },
          ],
        },
        'storyboard.scenes.2.value',
      ],
      [{ scenes: [{ kind: 'progress', value: 140, label: 'x' }] }, 'storyboard.scenes.0.value'],
      [
        {
          scenes: [
            { kind: 'title', title: 'A' },
            { kind: 'cta', text: 'Go', colour: 'red' },
          ],
        },
        'storyboard.scenes.1.colour',
      ],
      [
        {
          scenes: [
            { kind: 'title', title: 'A' },
            { kind: 'bars', items: [{ label: 'a', value: -1 }] },
          ],
        },
        'storyboard.scenes.1.items.0.value',
      ],
      [{ scenes: [{ kind: 'image', asset: 'image-1' }] }, 'storyboard.scenes.0.asset'],
      [
        {
          scenes: [
            { kind: 'statement', text: 'A', seconds: 40 },
            { kind: 'statement', text: 'B', seconds: 40 },
          ],
        },
        'storyboard.scenes',
      ],
      [{ scenes: [] }, 'storyboard.scenes'],
      [
        { scenes: [{ kind: 'title', title: 'A' }], look: { palette: { accent: 'teal' } } },
        'storyboard.look.palette.accent',
      ],
    ];
    for (const [storyboard, param] of cases) {
      const res = await create({ engine: 'lottie', storyboard });
      expect(res.status, JSON.stringify(storyboard)).toBe(400);
      expect(res.body.error.param, JSON.stringify(res.body)).toBe(param);
      expect(res.body.error.message).toContain(param);
    }
    // The reference's pictures are served (frames of real renders, bench/storyboard-pictures.ts).
    const picture = await fetch(`${stack.url}/docs/pictures/lottie-counter.png`);
    expect([picture.status, picture.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect((await fetch(`${stack.url}/docs/pictures/none-such.png`)).status).toBe(404);
    // Neither a prompt nor a storyboard; variables without a storyboard.
    expect((await create({ engine: 'lottie' })).body.error.param).toBe('input');
    expect((await create({ engine: 'lottie', input: 'Hello', variables: { a: 'b' } })).body.error.param).toBe(
      'variables',
    );
  });

  it(
    'a prompt-planned storyboard sent back unchanged makes the same composition byte for byte; ' +
      'one counter changed differs only there',
    { timeout: 400_000 },
    async () => {
      const engine = 'lottie';
      const prompt = await completed({
        engine,
        input: 'Nimbus, the calm calendar. Over 12,000 teams use it every day. Sign up at nimbus.app',
      });
      expect(prompt.done.storyboard_url.expires_at).toBeGreaterThan(Date.now() / 1000);
      const storyboard = (await (await fetch(prompt.done.storyboard_url.url)).json()) as {
        scenes: { kind: string; value?: unknown }[];
      };
      const counter = storyboard.scenes.findIndex((s) => s.kind === 'counter');
      expect(counter, JSON.stringify(storyboard)).toBeGreaterThan(0);

      // The dashboard's generation page shows the scenes in words and offers the storyboard for download.
      const member = await createTestMember(stack.db, orgId);
      const browser = new DashboardClient(stack.url);
      await browser.signIn(member.email, member.password);
      const page = await browser.get(`/dashboard/generations/${prompt.done.id}`);
      expect(page.status).toBe(200);
      const card = /<section class="card" id="generation-storyboard">([\s\S]*?)<\/section>/.exec(page.body)?.[1] ?? '';
      expect(card).toContain('Counter: Over · 12,000 · “Teams use it every day”');
      expect(card.match(/<li>/g)?.length).toBe(storyboard.scenes.length);
      const download = /id="storyboard-download" href="([^"]+)"/.exec(card)?.[1]?.replace(/&amp;/g, '&');
      expect(await (await fetch(new URL(download!, stack.url))).json()).toEqual(storyboard);

      const same = await completed({ engine, storyboard });
      expect(same.artifact).toBe(prompt.artifact);

      const changed = structuredClone(storyboard);
      changed.scenes[counter].value = '13,500';
      const edited = await completed({ engine, storyboard: changed });
      const before = byScene(lottieTexts(prompt.artifact));
      const after = byScene(lottieTexts(edited.artifact));
      expect(after.length).toBe(before.length);
      for (const [i, texts] of after.entries()) {
        if (i === counter) expect(texts).toEqual(before[i]!.map((t) => t.replace('12,000', '13,500')));
        else expect(texts).toEqual(before[i]);
      }
      expect(after[counter]!.join(' ')).toContain('13,500');
      // Only the counter scene's precomposition differs.
      const scenes = (json: string) => (JSON.parse(json) as { assets: { id: string }[] }).assets;
      const differing = scenes(edited.artifact)
        .filter((a, i) => JSON.stringify(a) !== JSON.stringify(scenes(prompt.artifact)[i]))
        .map((a) => a.id);
      expect(differing).toEqual([`scene_${counter + 1}`]);
    },
  );
});
