// Gets the composition out of an LLM reply: a fenced ```html / ```json block (or the longest fenced
// block), else the raw reply, trimmed to the HTML document or the outermost JSON object. Whatever
// comes out is validated by the engine; a reply without a composition fails validation and is repaired.
import type { EngineId } from '../shared.js';

const LANGUAGES: Record<EngineId, string[]> = { hyperframes: ['html', 'htm', 'xhtml'], lottie: ['json', 'lottie', 'jsonc'] };

type Block = { lang: string; body: string };

/** Fenced code blocks; an unclosed one (a reply cut at max_tokens) runs to the end. */
export function fencedBlocks(reply: string): Block[] {
  const blocks: Block[] = [];
  let open: { fence: string; lang: string; lines: string[] } | null = null;
  for (const line of reply.split(/\r?\n/)) {
    const fence = /^\s*(`{3,}|~{3,})\s*([\w+-]*)/.exec(line);
    if (!open) {
      if (fence) open = { fence: fence[1]!, lang: fence[2]!.toLowerCase(), lines: [] };
    } else if (isClosingFence(line.trim(), open.fence)) {
      blocks.push({ lang: open.lang, body: open.lines.join('\n') });
      open = null;
    } else {
      open.lines.push(line);
    }
  }
  if (open) blocks.push({ lang: open.lang, body: open.lines.join('\n') });
  return blocks;
}

/** CommonMark: the same character, at least as many, nothing else on the line. */
const isClosingFence = (line: string, opening: string) =>
  line.length >= opening.length && line === opening[0]!.repeat(line.length);

export function extractComposition(reply: string, engine: EngineId): string {
  const blocks = fencedBlocks(reply);
  const block =
    blocks.find((b) => LANGUAGES[engine].includes(b.lang)) ??
    blocks.reduce<Block | undefined>((a, b) => (!a || b.body.length > a.body.length ? b : a), undefined);
  const text = (block?.body ?? reply).trim();
  return engine === 'lottie' ? outermostObject(text) : htmlDocument(text);
}

function htmlDocument(text: string): string {
  const start = text.search(/<!doctype html|<html[\s>]/i);
  if (start === -1) return text;
  const end = text.toLowerCase().lastIndexOf('</html>');
  return end > start ? text.slice(start, end + '</html>'.length) : text.slice(start);
}

function outermostObject(text: string): string {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start !== -1 && end > start ? text.slice(start, end + 1) : text;
}
