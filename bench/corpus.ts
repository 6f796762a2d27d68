// Planner corpus pass rates (issue 30): every prompt of test/storyboard/corpus/ planned and composed by
// both engines' offline composers, checked property by property (test/storyboard/corpus.ts).
//   npx tsx bench/corpus.ts [--part tuning|held-out|designed|designed-seen|designed-held-out] [--details] [--lang es]
// Prints, per language, the prompts and how many fail each property (a prompt counts once per
// property, whichever engine failed it); --details lists every failure.
import { parseArgs } from 'node:util';
import { checkPrompt, composerSubject, loadCorpus, PROPERTIES, tally } from '../test/storyboard/corpus.js';

const { values } = parseArgs({
  options: {
    part: { type: 'string', default: 'tuning' },
    details: { type: 'boolean', default: false },
    lang: { type: 'string' },
  },
});
const part =
  (['held-out', 'designed', 'designed-seen', 'designed-held-out'] as const).find((p) => p === values.part) ?? 'tuning';
const subject = composerSubject();

const corpus = loadCorpus(part).filter((p) => !values.lang || p.lang === values.lang);
const results = corpus.map((p) => checkPrompt(p, subject));
if (values.details) {
  for (const r of results) for (const f of r.failures) console.log(`${r.prompt.id}\t${f.property}\t${f.detail}`);
}
const rows = tally(results);
const total = (k: string) => rows.reduce((a, r) => a + Number(r[k]), 0);
console.log(`\n${part}: ${corpus.length} prompts, ${total('passed')} pass every check\n`);
console.log(`| language | prompts | all pass | ${PROPERTIES.join(' | ')} |`);
console.log(`|---|---|---|${PROPERTIES.map(() => '---').join('|')}|`);
for (const r of rows)
  console.log(`| ${r.lang} | ${r.prompts} | ${r.passed} | ${PROPERTIES.map((p) => r[p]).join(' | ')} |`);
console.log(`| all | ${corpus.length} | ${total('passed')} | ${PROPERTIES.map((p) => total(p)).join(' | ')} |`);
