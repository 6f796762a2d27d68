// The storyboard planner (prompt → scenes, look, length), engine-neutral: the offline composers of
// both engines draw what it decides, so its choices are tested once here.
import { describe, expect, it } from 'vitest';
import { resolveDuration } from '../../src/engines/limits.js';
import { statedDurationSeconds, withoutDurationPhrase } from '../../src/engines/storyboard/duration.js';
import { NAMED_COLOURS } from '../../src/engines/storyboard/look.js';
import { planStoryboard, splitSentences } from '../../src/engines/storyboard/plan.js';
import type { Scene } from '../../src/engines/storyboard/types.js';

const plan = (prompt: string, durationSeconds: number | null = null, instructions: string | null = null) =>
  planStoryboard({ prompt, instructions, durationSeconds });
const kinds = (prompt: string) => plan(prompt).scenes.map((s) => s.kind);
const sceneOf = <K extends Scene['kind']>(prompt: string, kind: K): Extract<Scene, { kind: K }> => {
  const scene: Scene | undefined = plan(prompt).scenes.find((s) => s.kind === kind);
  if (!scene) throw new Error(`no ${kind} scene for: ${prompt}`);
  return scene as Extract<Scene, { kind: K }>;
};

describe('scenes', () => {
  it('numbers become counters with their clause as label; the headline keeps the whole sentence', () => {
    const s = plan('Revenue grew 42% to $18.6M. Customers love it.');
    expect(s.scenes[0]).toMatchObject({ kind: 'title', title: 'Revenue grew 42% to $18.6M' });
    expect(s.scenes[1]).toMatchObject({ kind: 'counter', value: 18.6, decimals: 1, prefix: '$', suffix: 'M', label: 'Revenue grew 42%' });
    expect(s.scenes[2]).toMatchObject({ kind: 'statement', text: 'Customers love it' });
  });

  it('a lone percentage is a progress bar; three figures of a kind a bar chart with labels', () => {
    expect(sceneOf('Hello. 98% of customers come back.', 'progress')).toMatchObject({ percent: 98, label: 'of customers come back' });
    expect(sceneOf('Signups by quarter: Q1 12k, Q2 18k, Q3 25k and Q4 31k.', 'bars').bars.map((b) => [b.label, b.display])).toEqual([
      ['Q1', '12k'],
      ['Q2', '18k'],
      ['Q3', '25k'],
      ['Q4', '31k'],
    ]);
    expect(sceneOf('Night market. 300 stalls, 40 food trucks, 12 stages and 5 bars.', 'bars').bars.map((b) => b.label)).toEqual(['stalls', 'food trucks', 'stages', 'bars']);
  });

  it('commas inside figures separate nothing', () => {
    expect(kinds('Big year. Revenue hit $1,250,000 in 2024.')).toEqual(['title', 'counter']);
  });

  it('years, decades and times are not figures', () => {
    expect(kinds('Our story. Founded in 1998, with an 80s vibe, open at 8pm.')).toEqual(['title', 'statement']);
  });

  it('enumerations become lists; quotes quote cards; calls to action close the video', () => {
    expect(sceneOf('Nimbus. It syncs instantly, works offline, and encrypts everything.', 'list').items).toEqual(['It syncs instantly', 'Works offline', 'Encrypts everything']);
    expect(kinds('Three tips for better sleep: dim the lights, skip late coffee, and keep a schedule.')).toEqual(['title', 'list']);
    expect(sceneOf('Nimbus. "It changed how our team thinks," says Maria Lopez.', 'quote')).toMatchObject({ quote: 'It changed how our team thinks', attribution: 'Maria Lopez' });
    const s = plan('Nimbus. Sign up at nimbus.app today! It is fast.');
    expect(s.scenes.at(-1)).toMatchObject({ kind: 'cta', action: 'Sign up today!', detail: 'nimbus.app' });
    expect(sceneOf('Nimbus. Available March 3 for $4.99.', 'cta')).toMatchObject({ detail: 'March 3' });
    expect(sceneOf('Lisbon. Plan your trip today at lisbon.travel', 'cta')).toMatchObject({ detail: 'lisbon.travel' });
  });

  it('a quote after the headline is a card; "over" a figure is a +; a pronoun and a verb head no list; subtitles start upper case', () => {
    expect(plan('Meet Nimbus: "The best notes app I have used" says Jane Doe.').scenes.map((s) => s.kind)).toEqual(['title', 'quote']);
    expect(plan('Meet Nimbus: "The best notes app I have used" says Jane Doe.').scenes[0]).toMatchObject({ title: 'Meet Nimbus', subtitle: null });
    expect(sceneOf('Hello. Over 10,000 teams use it every day.', 'counter')).toMatchObject({ value: 10000, suffix: '+', label: 'Teams use it every day' });
    expect(sceneOf('Hello. Nearly 500 companies trust us.', 'counter')).toMatchObject({ value: 500, suffix: '', label: 'Companies trust us' });
    expect(sceneOf('Lumen. It is fast, private, and free.', 'list')).toEqual({ kind: 'list', heading: null, items: ['Fast', 'Private', 'Free'], start: expect.any(Number), duration: expect.any(Number) });
    expect(plan('Orbit: the smartest way to plan trips.').scenes[0]).toMatchObject({ title: 'Orbit', subtitle: 'The smartest way to plan trips' });
  });

  it('calls to action in other languages, at country domains, with a time of day', () => {
    expect(sceneOf('新しいカメラアプリ。今すぐダウンロード：lumen.jp', 'cta')).toMatchObject({ action: '今すぐダウンロード', detail: 'lumen.jp' });
    expect(sceneOf('Nuevo café en Madrid. Visítanos en cafe.es', 'cta')).toMatchObject({ action: 'Visítanos', detail: 'cafe.es' });
    expect(sceneOf('Docs. Read more at docs.example.co.uk', 'cta')).toMatchObject({ action: 'Read more', detail: 'docs.example.co.uk' });
    expect(sceneOf('Arcade night. Doors open Friday 8pm.', 'cta')).toMatchObject({ action: 'Doors open', detail: 'Friday 8pm' });
    expect(kinds('Built with Node.js and React. It is quick.')).toEqual(['title', 'statement']);
  });

  it('titles drop what the video is ("A 10-second launch teaser for …") and style requests', () => {
    expect(plan('A 10-second explainer: revenue grew 42%.').scenes[0]).toMatchObject({ title: 'Revenue grew 42%' });
    expect(plan('A launch teaser for Nimbus, the calm note app').scenes[0]).toMatchObject({ title: 'Nimbus, the calm note app' });
    expect(plan('Quarterly results with teal accents and serif type').scenes[0]).toMatchObject({ title: 'Quarterly results' });
  });

  it('sentences end after figures and CJK punctuation, not inside decimals or abbreviations', () => {
    expect(splitSentences('Cookies cost $2.50. 98% come back. See e.g. our menu. 新しい。速い！')).toEqual([
      'Cookies cost $2.50.',
      '98% come back.',
      'See e.g. our menu.',
      '新しい。',
      '速い！',
    ]);
  });

  it('long prompts are summarised: figures, lists and the call to action first, whole clauses only', () => {
    const sentences = Array.from({ length: 14 }, (_, i) => `Point number ${['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen'][i]} matters`);
    const prompt = `Big news. ${sentences.join('. ')}. Sales rose 30%. Join us at acme.com`;
    const s = plan(prompt, 6);
    expect(s.scenes.length).toBeLessThanOrEqual(3);
    expect(s.scenes.map((x) => x.kind)).toEqual(['title', 'progress', 'cta']);
    for (const scene of plan(prompt).scenes) {
      if (scene.kind === 'statement') expect(prompt).toContain(scene.text);
    }
  });

  it('the same prompt gives the same storyboard; right-to-left scripts are marked', () => {
    expect(plan('A teal logo reveal for Orbit')).toEqual(plan('A teal logo reveal for Orbit'));
    expect(plan('مرحبا بالعالم. هذا فيديو قصير.').direction).toBe('rtl');
    expect(plan('שלום עולם').direction).toBe('rtl');
    expect(plan('新しいアプリのご紹介 🚀。').direction).toBe('ltr');
  });
});

describe('length', () => {
  it('reads lengths stated in words, not decades', () => {
    expect(statedDurationSeconds('A 10-second explainer')).toBe(10);
    expect(statedDurationSeconds('15 s teaser')).toBe(15);
    expect(statedDurationSeconds('a 15s teaser')).toBe(15);
    expect(statedDurationSeconds('half a minute promo')).toBe(30);
    expect(statedDurationSeconds('a one minute recap')).toBe(60);
    expect(statedDurationSeconds('1.5 minutes of fame')).toBe(90);
    expect(statedDurationSeconds('twenty seconds of calm')).toBe(20);
    expect(statedDurationSeconds('an 80s vibe')).toBeNull();
    expect(statedDurationSeconds('a launch teaser')).toBeNull();
    expect(withoutDurationPhrase('A 10-second explainer about cats')).toBe('An explainer about cats');
  });

  it('a requested length wins, then a stated one (clamped to 1–60 s), else the natural one (≈2.5 s a scene)', () => {
    expect(resolveDuration(7, 'A 10-second clip')).toBe(7);
    expect(resolveDuration(undefined, 'A 10-second clip')).toBe(10);
    expect(resolveDuration(undefined, 'a 2 minute film')).toBe(60);
    expect(resolveDuration(undefined, 'a clip')).toBeNull();
    expect(plan('A 10-second clip about cats. They nap.').durationSeconds).toBe(10);
    expect(plan('Cats. They nap. They purr.', 7).durationSeconds).toBe(7);
    const natural = plan('Cats. They nap. They purr.');
    expect(natural.durationSeconds).toBe(8);
  });

  it('scenes tile the length exactly', () => {
    for (const d of [1, 3, 7.5, 60]) {
      const s = plan('Cats. They nap, eat and purr. 9 lives. "Meow," says Tom. Adopt one at cats.org', d);
      expect(s.scenes[0]!.start).toBe(0);
      for (let i = 1; i < s.scenes.length; i++) expect(s.scenes[i]!.start).toBeCloseTo(s.scenes[i - 1]!.start + s.scenes[i - 1]!.duration, 6);
      const last = s.scenes.at(-1)!;
      expect(last.start + last.duration).toBeCloseTo(d, 6);
    }
  });
});

describe('look', () => {
  it('honours named colours, styles and fonts', () => {
    expect(plan('A promo with teal accents').look.palette.accent).not.toBe(plan('A promo').look.palette.accent);
    expect(plan('A dark promo in teal').look.palette.accent).toBe(NAMED_COLOURS.teal);
    expect(plan('A sepia memory').look).toMatchObject({ name: 'sepia', theme: 'light', font: 'serif' });
    expect(plan('A neon night').look).toMatchObject({ name: 'neon', theme: 'dark', decoration: 'glow' });
    expect(plan('A minimal launch').look).toMatchObject({ decoration: 'none', motion: 'calm' });
    expect(plan('An elegant serif launch').look.font).toBe('serif');
    expect(plan('A launch for developers').look.font).toBe('mono');
    expect(plan('A dark launch').look.theme).toBe('dark');
    expect(plan('A bright launch').look.theme).toBe('light');
    expect(plan('A launch', null, 'Use a navy background').look.palette.background).toBe(NAMED_COLOURS.navy);
  });

  it('different prompts get different looks', () => {
    const looks = new Set(['Cats', 'Dogs', 'Birds', 'Fish', 'Mice', 'Cows', 'Pigs', 'Owls'].map((p) => plan(p).look.name));
    expect(looks.size).toBeGreaterThanOrEqual(3);
  });
});
