// What an LLM needs to write Lottie animations: the contract and the prompting guide (ours, the .md
// files beside this module), how a reply is read (the outermost JSON object), and where its narration is.
import fs from 'node:fs';
import { narrationLines } from '../../storyboard/narration.js';
import type { EngineLlmKit } from '../types.js';

const read = (file: string) => fs.readFileSync(new URL(file, import.meta.url), 'utf8').trim();

function outermostObject(text: string): string {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start !== -1 && end > start ? text.slice(start, end + 1) : text;
}

let contract: string | undefined;
let guide: string | undefined;

export const lottieLlm: EngineLlmKit = {
  description: 'a Lottie JSON animation',
  fence: 'json',
  fenceLanguages: ['json', 'lottie', 'jsonc'],
  trimToComposition: outermostObject,
  contract: () => (contract ??= read('./contract.md')),
  guide: () => (guide ??= read('./guide.md')),
  // Players ignore a top-level member they do not know: the animation renders the same with it.
  narrationPlace: 'as a top-level "narration" member of the animation JSON',
  narrationOf(source) {
    try {
      return narrationLines((JSON.parse(source) as { narration?: unknown }).narration);
    } catch {
      return [];
    }
  },
};
