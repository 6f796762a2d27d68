// The public storyboard (src/storyboard/schema.ts): every planned storyboard of the corpus, written
// out and read back, is the same storyboard, and both engines draw it byte for byte as the embedded
// composer did; variables fill placeholders; bad figures and image references name their path.
import { describe, expect, it } from 'vitest';
import { getEngine } from '../../src/engines/index.js';
import { DomainError } from '../../src/errors.js';
import { offlineStoryboard } from '../../src/storyboard/plan.js';
import { fillVariables, fromStoryboard, storyboardSchema, toStoryboard } from '../../src/storyboard/schema.js';
import { loadCorpus } from './corpus.js';

const canvas = { width: 360, height: 640 };
const noImages = () => null;

function thrown(f: () => unknown): DomainError {
  try {
    f();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('no error');
}

describe('the public storyboard', () => {
  it(
    'every planned storyboard of the corpus reads back the same, and draws the same on both engines',
    { timeout: 300_000 },
    async () => {
      const corpus = loadCorpus('tuning');
      expect(corpus.length).toBeGreaterThan(100);
      for (const [i, p] of corpus.entries()) {
        // (Yielding between prompts keeps the test runner's worker answering.)
        await new Promise((r) => setImmediate(r));
        const spec = {
          ...canvas,
          prompt: p.prompt,
          instructions: p.instructions ?? null,
          durationSeconds: p.duration_seconds ?? null,
          assets: [],
        };
        const board = offlineStoryboard(spec);
        const wire = storyboardSchema.parse(JSON.parse(JSON.stringify(fromStoryboard(board))));
        const back = toStoryboard(wire, { image: noImages });
        expect(back, p.prompt).toEqual(board);
        // Drawing is costly: the engines are compared on a sample.
        if (i % 40 === 0) {
          for (const engine of ['hyperframes', 'lottie'])
            expect(getEngine(engine).drawStoryboard!(back, spec), `${engine}: ${p.prompt}`).toBe(
              getEngine(engine).composeOffline(spec),
            );
        }
      }
    },
  );

  it('variables fill every placeholder; a missing one is named', () => {
    const sb = {
      scenes: [
        { kind: 'title', title: 'Hello {{ name }}' },
        { kind: 'counter', value: '{{n}}', label: '{{name}}’s points' },
      ],
    };
    expect(fillVariables(sb, { name: 'Ana', n: 1200 })).toEqual({
      scenes: [
        { kind: 'title', title: 'Hello Ana' },
        { kind: 'counter', value: '1200', label: 'Ana’s points' },
      ],
    });
    const err = thrown(() => fillVariables(sb, { name: 'Ana' }));
    expect(err.param).toBe('variables.n');
    expect(err.message).toContain('storyboard.scenes.1.value');
  });

  it('a figure that is no number, a progress over 100 and an unknown image name their path', () => {
    const read = (scenes: unknown[]) =>
      toStoryboard(storyboardSchema.parse({ scenes }), { image: (ref) => (ref === 'image-1' ? 'image-1.png' : null) });
    expect(
      thrown(() =>
        read([
          { kind: 'statement', text: 'a' },
          { kind: 'counter', value: 'lots', label: 'x' },
        ]),
      ).param,
    ).toBe('storyboard.scenes.1.value');
    expect(thrown(() => read([{ kind: 'progress', value: 140, label: 'x' }])).param).toBe('storyboard.scenes.0.value');
    expect(
      thrown(() =>
        read([
          {
            kind: 'bars',
            items: [
              { label: 'a', value: 1 },
              { label: 'b', value: '1..2' },
            ],
          },
        ]),
      ).param,
    ).toBe('storyboard.scenes.0.items.1.value');
    expect(thrown(() => read([{ kind: 'image', asset: 'image-2' }])).param).toBe('storyboard.scenes.0.asset');
    expect(read([{ kind: 'image', asset: 'image-1', caption: 'Us' }]).scenes[0]).toMatchObject({
      kind: 'image',
      image: 'image-1.png',
      caption: 'Us',
    });
  });

  it('scene seconds are kept; duration_seconds scales them', () => {
    const scenes = [
      { kind: 'title', title: 'A', seconds: 2 },
      { kind: 'statement', text: 'B', seconds: 3 },
    ];
    const exact = toStoryboard(storyboardSchema.parse({ scenes }), { image: noImages });
    expect(exact.scenes.map((s) => [s.start, s.duration])).toEqual([
      [0, 2],
      [2, 3],
    ]);
    expect(exact.durationSeconds).toBe(5);
    const scaled = toStoryboard(storyboardSchema.parse({ scenes, duration_seconds: 10 }), { image: noImages });
    expect(scaled.scenes.map((s) => [s.start, s.duration])).toEqual([
      [0, 4],
      [4, 6],
    ]);
  });
});
