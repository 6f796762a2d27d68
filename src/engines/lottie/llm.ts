// What an LLM needs to write Lottie animations: the contract and the prompting guide (ours, the .md
// files beside this module), and how a reply is read (the outermost JSON object).
import fs from 'node:fs';
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
};
