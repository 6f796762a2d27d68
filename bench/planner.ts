// What the embedded composer's planner costs (issue 45: every step but the render under a second): the first
// prompt of each language in a fresh process (its word lists' patterns compiled then) and the same prompt again.
//   npx tsx bench/planner.ts
// Prints per language the first and the second planning in milliseconds, then the slowest first one.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadCorpus } from '../test/storyboard/corpus.js';

if (process.argv[2] === '--one') {
  const { offlineStoryboard } = await import('../src/storyboard/plan.js');
  const prompt = process.argv[3]!;
  const plan = () => offlineStoryboard({ prompt, instructions: null, durationSeconds: null, assets: [] });
  const times = [0, 1].map(() => {
    const t = performance.now();
    plan();
    return performance.now() - t;
  });
  console.log(JSON.stringify(times));
} else {
  const self = fileURLToPath(import.meta.url);
  const firstOf = new Map<string, string>();
  for (const p of loadCorpus('tuning')) if (!firstOf.has(p.lang)) firstOf.set(p.lang, p.prompt);
  console.log('| language | first plan (ms) | again (ms) |\n|---|---|---|');
  const rows = [...firstOf].map(([lang, prompt]) => {
    const out = execFileSync(process.execPath, [...process.execArgv, self, '--one', prompt], { encoding: 'utf8' });
    const [first, again] = JSON.parse(out.trim().split('\n').at(-1)!) as number[];
    console.log(`| ${lang} | ${first!.toFixed(0)} | ${again!.toFixed(1)} |`);
    return first!;
  });
  console.log(
    `slowest first plan: ${Math.max(...rows).toFixed(0)} ms; median ${rows.sort((a, b) => a - b)[7]!.toFixed(0)} ms`,
  );
}
