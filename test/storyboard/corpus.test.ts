// The planner corpus (issue 30) over both engines' offline composers: every prompt's on-screen text is
// the user's own, covers the prompt, has the expected structure, shows no fact twice, no broken label,
// and lasts the asked length (test/storyboard/corpus.ts says how each is checked). The held-out part,
// never tuned on, is held to a floor and its pass rate reported apart.
import { describe, expect, it } from 'vitest';
import { checkPrompt, composerSubject, loadCorpus, tally } from './corpus.js';

const subject = composerSubject();

/**
 * Every prompt of a part checked, the event loop given a turn between prompts: minutes of synchronous work would
 * starve the test worker's messages to vitest (its RPC times out after a minute).
 */
async function checkAll(part: Parameters<typeof loadCorpus>[0]) {
  const results = [];
  for (const p of loadCorpus(part)) {
    results.push(checkPrompt(p, subject));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return results;
}

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
  it('every tuning prompt passes every check on both engines', { timeout: 600_000 }, async () => {
    const failures = (await checkAll('tuning')).flatMap((r) =>
      r.failures.map((f) => `${r.prompt.id} ${f.property}: ${f.detail}`),
    );
    expect(failures).toEqual([]);
  });

  it('the held-out prompts pass at 85 % or more (reported apart, never tuned on)', { timeout: 300_000 }, async () => {
    const results = await checkAll('held-out');
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

  // Issue 43: the designed corpus (comparisons, timelines, features, pictograms, step markers, cuts). The tuning part
  // is held to 90 %. The held-out parts (`seen`: the earlier ones, looked at since; `held-out`: the newest, written
  // before the planner changed again) are reported apart — their pass rates are in the notes — and on them no
  // on-screen word is not the user's and no scene's text ends on an abbreviation of its language.
  it('the designed tuning prompts pass at 90 % or more', { timeout: 600_000 }, async () => {
    const results = await checkAll('designed');
    const passed = results.filter((r) => r.failures.length === 0).length;
    console.log(`designed tuning corpus: ${passed}/${results.length} prompts pass every check`);
    expect(passed / results.length).toBeGreaterThanOrEqual(0.9);
  });

  for (const part of ['designed-seen', 'designed-held-out'] as const) {
    it(`the ${part} prompts are reported apart, fidelity and cuts never traded`, { timeout: 600_000 }, async () => {
      const results = await checkAll(part);
      const passed = results.filter((r) => r.failures.length === 0).length;
      console.log(`${part} corpus: ${passed}/${results.length} prompts pass every check`, tally(results));
      const never = results.flatMap((r) =>
        r.failures
          .filter((f) => f.property === 'fidelity' || f.property === 'cuts')
          .map((f) => `${r.prompt.id} ${f.property}: ${f.detail}`),
      );
      expect(never).toEqual([]);
    });
  }
});
