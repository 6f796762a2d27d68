// What an LLM needs to write HyperFrames compositions: the contract (ours, contract.md) and the
// prompting guide, taken from the authoring docs @hyperframes/core ships so it follows the engine's
// version; and how a reply is read (an HTML document, prose around it trimmed).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { narrationLines } from '../../storyboard/narration.js';
import type { EngineLlmKit } from '../types.js';

const HYPERFRAMES_DOCS = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@hyperframes/core/package.json')),
  'docs',
);

/**
 * Sections of the HyperFrames reference (core.md) a prompt writer needs: what the engine can show and how time works.
 */
export const HYPERFRAMES_GUIDE_SECTIONS = [
  'Overview',
  'Clip Types',
  'Two Layers: Primitives and Scripts',
  'Timeline Contract',
];

/** The `## heading` section of a markdown document, up to the next `## ` heading; undefined when absent. */
export function markdownSection(markdown: string, heading: string): string | undefined {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${heading}`);
  if (start === -1) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^##? /.test(l));
  return lines
    .slice(start, end === -1 ? undefined : end)
    .join('\n')
    .trim();
}

function readGuide(): string {
  const core = fs.readFileSync(path.join(HYPERFRAMES_DOCS, 'core.md'), 'utf8');
  const sections = HYPERFRAMES_GUIDE_SECTIONS.map((h) => {
    const section = markdownSection(core, h);
    if (!section) throw new Error(`@hyperframes/core docs/core.md has no "## ${h}" section`);
    return section;
  });
  const mistakes = fs.readFileSync(path.join(HYPERFRAMES_DOCS, 'common-mistakes.md'), 'utf8').trim();
  return ['# HyperFrames (from the @hyperframes/core documentation)', ...sections, mistakes].join('\n\n');
}

/** The HTML document in a text: from `<!doctype html>`/`<html>` to the last `</html>`. */
function htmlDocument(text: string): string {
  const start = text.search(/<!doctype html|<html[\s>]/i);
  if (start === -1) return text;
  const end = text.toLowerCase().lastIndexOf('</html>');
  return end > start ? text.slice(start, end + '</html>'.length) : text.slice(start);
}

let contract: string | undefined;
let guide: string | undefined;

export const hyperframesLlm: EngineLlmKit = {
  description: 'a HyperFrames HTML composition',
  fence: 'html',
  fenceLanguages: ['html', 'htm', 'xhtml'],
  trimToComposition: htmlDocument,
  contract: () => (contract ??= fs.readFileSync(new URL('./contract.md', import.meta.url), 'utf8').trim()),
  guide: () => (guide ??= readGuide()),
  // A JSON script is data: the page never runs it.
  narrationPlace: 'in <script type="application/json" id="narration"> … </script> inside <body>',
  narrationOf(source) {
    for (const m of source.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
      if (!/\bid\s*=\s*["']?narration\b/i.test(m[1]!)) continue;
      try {
        return narrationLines(JSON.parse(m[2]!));
      } catch {
        return [];
      }
    }
    return [];
  },
};
