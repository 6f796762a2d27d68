// The planner corpus (issue 30) over both engines' offline composers: every prompt's on-screen text is
// the user's own, covers the prompt, has the expected structure, shows no fact twice, no broken label,
// and lasts the asked length (test/storyboard/corpus.ts says how each is checked). The held-out part,
// never tuned on, is held to a floor and its pass rate reported apart.
import { describe, expect, it } from 'vitest';
import { checkPrompt, composerSubject, loadCorpus, tally } from './corpus.js';

const subject = composerSubject();

describe('planner corpus', () => {
  it('has at least 200 prompts in at least 12 languages, held-out part apart', () => {
    const tuning = loadCorpus('tuning');
    const heldOut = loadCorpus('held-out');
    expect(tuning.length + heldOut.length).toBeGreaterThanOrEqual(200);
    expect(new Set(tuning.map((p) => p.lang)).size).toBeGreaterThanOrEqual(12);
    expect(heldOut.length).toBeGreaterThan(0);
    const ids = [...tuning, ...heldOut].map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  // CPU-bound (about 400 compositions): 45 s on an idle machine, more than twice that under load.
  it('every tuning prompt passes every check on both engines', { timeout: 600_000 }, () => {
    const failures = loadCorpus('tuning').flatMap((p) =>
      checkPrompt(p, subject).failures.map((f) => `${p.id} ${f.property}: ${f.detail}`),
    );
    expect(failures).toEqual([]);
  });

  it('the held-out prompts pass at 85 % or more (reported apart, never tuned on)', { timeout: 300_000 }, () => {
    const results = loadCorpus('held-out').map((p) => checkPrompt(p, subject));
    const passed = results.filter((r) => r.failures.length === 0).length;
    console.log(`held-out corpus: ${passed}/${results.length} prompts pass every check`, tally(results));
    // Fidelity is never traded: no held-out prompt may show words that are not the user's.
    expect(
      results.flatMap((r) =>
        r.failures.filter((f) => f.property === 'fidelity').map((f) => `${r.prompt.id}: ${f.detail}`),
      ),
    ).toEqual([]);
    expect(passed / results.length).toBeGreaterThanOrEqual(0.85);
  });
});
