// The dashboard's words for a generation's progress and its prompt's first line (pure functions).
import { describe, expect, it } from 'vitest';
import { fitBox, promptFirstLine } from '../../src/dashboard/views/format.js';
import { progressLabel } from '../../src/dashboard/views/progress.js';
import type { GenerationProgress } from '../../src/shared.js';
import { generationRequest } from '../support/fixtures.js';

const progress = (p: Partial<GenerationProgress>): GenerationProgress => ({
  stage: 'queued',
  percent: 0,
  frames_rendered: null,
  frames_total: null,
  eta_seconds: null,
  provider: null,
  repair_round: null,
  ...p,
});

describe('progressLabel', () => {
  it('names each stage in words', () => {
    expect(progressLabel('queued', progress({}))).toBe('Queued');
    expect(progressLabel('queued', null)).toBe('Queued');
    expect(progressLabel('in_progress', null)).toBe('In progress');
    expect(progressLabel('in_progress', progress({ stage: 'composing', provider: 'openai', repair_round: 0 }))).toBe(
      'Composing with openai',
    );
    expect(progressLabel('in_progress', progress({ stage: 'composing', provider: 'openai', repair_round: 2 }))).toBe(
      'Composing with openai (repair round 2)',
    );
    expect(
      progressLabel(
        'in_progress',
        progress({ stage: 'rendering', frames_rendered: 120, frames_total: 300, eta_seconds: 12.4 }),
      ),
    ).toBe('Rendering frame 120 of 300, about 12 s left');
    expect(
      progressLabel(
        'in_progress',
        progress({ stage: 'rendering', frames_rendered: 10, frames_total: 9000, eta_seconds: 185 }),
      ),
    ).toBe('Rendering frame 10 of 9000, about 3 min left');
    expect(progressLabel('in_progress', progress({ stage: 'rendering' }))).toBe('Rendering');
    expect(progressLabel('in_progress', progress({ stage: 'encoding' }))).toBe('Encoding');
    expect(progressLabel('in_progress', progress({ stage: 'storing' }))).toBe('Storing');
  });

  it('says how it ended', () => {
    expect(progressLabel('completed', null)).toBe('Done');
    expect(progressLabel('failed', null, { message: 'No provider answered' })).toBe('Failed: No provider answered');
    expect(progressLabel('cancelled', null, { message: 'Cancelled by the client' })).toBe('Cancelled');
  });
});

describe('promptFirstLine', () => {
  const request = (...texts: string[]) =>
    generationRequest('lottie', 'gpt-4o-mini', { content: texts.map((text) => ({ type: 'text' as const, text })) });

  it('takes the first non-blank line, whitespace collapsed', () => {
    expect(promptFirstLine(request('\n\n  A rocket   launch \nsecond line'))).toBe('A rocket launch');
    expect(promptFirstLine(request('', 'From the second part'))).toBe('From the second part');
  });

  it('cuts long lines at a word boundary with an ellipsis, never inside a code point', () => {
    const long =
      'An extremely long opening line that keeps going well past any sensible width for a table cell in the list';
    const cut = promptFirstLine(request(long));
    expect(cut.endsWith('…')).toBe(true);
    expect([...cut].length).toBeLessThanOrEqual(80);
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
    expect(long[cut.length - 1]).toBe(' ');
    const emoji = promptFirstLine(request('🚀'.repeat(100)), 10);
    expect([...emoji]).toHaveLength(10);
    expect(emoji).toBe(`${'🚀'.repeat(9)}…`);
  });
});

it('fitBox keeps proportions inside the box', () => {
  expect(fitBox(270, 480, 128, 96)).toEqual({ width: 54, height: 96 });
  expect(fitBox(1920, 1080, 128, 96)).toEqual({ width: 128, height: 72 });
  expect(fitBox(1080, 1080, 128, 96)).toEqual({ width: 96, height: 96 });
});
