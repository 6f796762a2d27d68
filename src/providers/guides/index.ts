// The texts that teach an LLM each engine: the composition contract (system prompt of every
// composition call) and the prompting guide (system prompt of the expand_prompt call). The
// HyperFrames guide comes from the authoring docs @hyperframes/core ships, so it follows the engine's
// version; the contracts and the Lottie guide are ours, in the .md files beside this module.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { EngineId } from '../../shared.js';

const read = (file: string) => fs.readFileSync(new URL(file, import.meta.url), 'utf8').trim();

const HYPERFRAMES_DOCS = path.join(path.dirname(createRequire(import.meta.url).resolve('@hyperframes/core/package.json')), 'docs');

/** Sections of the HyperFrames reference (core.md) a prompt writer needs: what the engine can show and how time works. */
export const HYPERFRAMES_GUIDE_SECTIONS = ['Overview', 'Clip Types', 'Two Layers: Primitives and Scripts', 'Timeline Contract'];

/** The `## heading` section of a markdown document, up to the next `## ` heading; undefined when absent. */
export function markdownSection(markdown: string, heading: string): string | undefined {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${heading}`);
  if (start === -1) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^##? /.test(l));
  return lines.slice(start, end === -1 ? undefined : end).join('\n').trim();
}

function hyperframesGuide(): string {
  const core = fs.readFileSync(path.join(HYPERFRAMES_DOCS, 'core.md'), 'utf8');
  const sections = HYPERFRAMES_GUIDE_SECTIONS.map((h) => {
    const section = markdownSection(core, h);
    if (!section) throw new Error(`@hyperframes/core docs/core.md has no "## ${h}" section`);
    return section;
  });
  const mistakes = fs.readFileSync(path.join(HYPERFRAMES_DOCS, 'common-mistakes.md'), 'utf8').trim();
  return ['# HyperFrames (from the @hyperframes/core documentation)', ...sections, mistakes].join('\n\n');
}

const cache = new Map<string, string>();
const once = (key: string, load: () => string) => cache.get(key) ?? cache.set(key, load()).get(key)!;

export function compositionContract(engine: EngineId): string {
  return once(`contract/${engine}`, () => read(`./${engine}-contract.md`));
}

export function promptingGuide(engine: EngineId): string {
  return once(`guide/${engine}`, () => (engine === 'hyperframes' ? hyperframesGuide() : read('./lottie-guide.md')));
}
