// Gets the composition out of an LLM reply: a fenced block in one of the engine's languages (or the
// longest fenced block), else the raw reply, trimmed by the engine (to the HTML document, the JSON object). Whatever
// comes out is validated by the engine; a reply without a composition fails validation and is repaired.
import { getEngine } from '../engines/index.js';

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

export function extractComposition(reply: string, engineId: string): string {
  const { llm } = getEngine(engineId);
  const blocks = fencedBlocks(reply);
  const block =
    blocks.find((b) => llm.fenceLanguages.includes(b.lang)) ??
    blocks.reduce<Block | undefined>((a, b) => (!a || b.body.length > a.body.length ? b : a), undefined);
  return llm.trimToComposition((block?.body ?? reply).trim());
}
