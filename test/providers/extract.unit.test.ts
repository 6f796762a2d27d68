// Getting the composition out of a chat reply, and the texts that teach the engines.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractComposition, fencedBlocks } from '../../src/providers/extract.js';
import { getEngine } from '../../src/engines/index.js';
import { HYPERFRAMES_GUIDE_SECTIONS, markdownSection } from '../../src/engines/hyperframes/llm.js';
import { compositionChat, expansionChat, repairRequest } from '../../src/providers/prompts.js';

const html = '<!doctype html>\n<html><body><div data-composition-id="main"></div></body></html>';
const json = '{"v":"5.7.0","layers":[{"ty":4}]}';

describe('extractComposition', () => {
  it('takes the ```html block for HyperFrames and the ```json block for Lottie, ignoring the prose', () => {
    const reply = `Sure!\n\n\`\`\`json\n${json}\n\`\`\`\n\nAnd the page:\n\`\`\`html\n${html}\n\`\`\`\nDone.`;
    expect(extractComposition(reply, 'hyperframes')).toBe(html);
    expect(extractComposition(reply, 'lottie')).toBe(json);
  });

  it('falls back to the longest fenced block when none has the right language', () => {
    expect(extractComposition(`\`\`\`\nshort\n\`\`\`\n\`\`\`js\n${json}\n\`\`\``, 'lottie')).toBe(json);
  });

  it('takes a raw reply, trimmed to the HTML document or the outermost JSON object', () => {
    expect(extractComposition(`Here it is: ${html} hope you like it`, 'hyperframes')).toBe(html);
    expect(extractComposition(`The animation: ${json}. Enjoy`, 'lottie')).toBe(json);
    expect(extractComposition(html, 'hyperframes')).toBe(html);
  });

  it('keeps a reply cut off by max_tokens (unclosed fence) so validation can report it', () => {
    expect(extractComposition('```html\n<!doctype html><html><body>', 'hyperframes')).toBe(
      '<!doctype html><html><body>',
    );
  });

  it('returns text without a composition as is (validation fails it, the LLM repairs it)', () => {
    expect(extractComposition('I cannot help with that.', 'lottie')).toBe('I cannot help with that.');
  });

  it('finds fences of any length and ~~~ fences', () => {
    expect(fencedBlocks('~~~html\na\n~~~\n````json\nb\n```\n````')).toEqual([
      { lang: 'html', body: 'a' },
      { lang: 'json', body: 'b\n```' },
    ]);
  });
});

describe('engine texts', () => {
  const docs = path.join(
    path.dirname(createRequire(import.meta.url).resolve('@hyperframes/core/package.json')),
    'docs',
  );

  it('the HyperFrames prompting guide is made of the @hyperframes/core docs sections and common mistakes', () => {
    const core = fs.readFileSync(path.join(docs, 'core.md'), 'utf8');
    const guide = getEngine('hyperframes').llm.guide();
    for (const heading of HYPERFRAMES_GUIDE_SECTIONS) expect(guide).toContain(markdownSection(core, heading)!);
    expect(guide).toContain(fs.readFileSync(path.join(docs, 'common-mistakes.md'), 'utf8').trim());
    expect(guide).toContain('window.__timelines');
  });

  it('the Lottie guide and both contracts are the concise texts in src/providers/guides', () => {
    expect(getEngine('lottie').llm.guide()).toMatch(/^## Prompting guide: Lottie motion graphics/);
    expect(getEngine('hyperframes').llm.contract()).toMatch(/window\.__timelines\["main"\] = tl/);
    expect(getEngine('lottie').llm.contract()).toMatch(/"op": FRAMES/);
  });

  it('markdownSection stops at the next section of the same level', () => {
    expect(markdownSection('# T\n## A\na\n### A1\nx\n## B\nb', 'A')).toBe('## A\na\n### A1\nx');
    expect(markdownSection('## A', 'Z')).toBeUndefined();
  });
});

describe('conversations', () => {
  const brief = {
    text: 'A bouncing ball',
    media: [
      { kind: 'image' as const, url: 'https://example.com/a.png' },
      { kind: 'video' as const, url: 'https://example.com/b.mp4' },
    ],
    instructions: 'Use brand colors',
  };

  it(
    'composition: contract, canvas, duration, instructions and fence format in the system prompt; ' +
      'accepted media as parts',
    () => {
      const chat = compositionChat(
        { engine: 'lottie', width: 160, height: 284, durationSeconds: null, brief, repair: null },
        ['image'],
      );
      expect(chat.system).toContain(getEngine('lottie').llm.contract());
      expect(chat.system).toContain('Canvas: 160x284 pixels');
      expect(chat.system).toContain(
        'Duration: 5 seconds unless the request asks for another length (at most 60 seconds)',
      );
      expect(chat.system).toContain('## Instructions from the requester\nUse brand colors');
      expect(chat.system).toContain('```json fenced code block');
      expect(chat.messages).toEqual([
        {
          role: 'user',
          content: [
            {
              type: 'text',
              text: expect.stringMatching(/^A bouncing ball\n\nReference video https:\/\/example.com\/b.mp4/),
            },
            { type: 'image', url: 'https://example.com/a.png' },
          ],
        },
      ]);
    },
  );

  it('repair: the previous composition as the assistant turn, then the findings with their fix hints', () => {
    const findings = [
      {
        code: 'missing_timeline_registry',
        severity: 'error' as const,
        message: 'Missing registration',
        fix_hint: 'Register it',
        location: '#x',
      },
    ];
    const chat = compositionChat(
      {
        engine: 'hyperframes',
        width: 160,
        height: 284,
        durationSeconds: null,
        brief,
        repair: { previous: html, findings },
      },
      [],
    );
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(chat.messages[1]!.content).toEqual([{ type: 'text', text: `\`\`\`html\n${html}\n\`\`\`` }]);
    expect(chat.messages[2]!.content).toEqual([{ type: 'text', text: repairRequest(findings, 'html') }]);
    expect(repairRequest(findings, 'html')).toContain(
      '- [missing_timeline_registry] at #x: Missing registration Fix: Register it',
    );
  });

  it('expansion: the engine guide in the system prompt, the request as the user turn', () => {
    const chat = expansionChat({ engine: 'hyperframes', width: 1080, height: 1920, durationSeconds: null, brief }, [
      'image',
      'video',
    ]);
    expect(chat.system).toContain(getEngine('hyperframes').llm.guide());
    expect(chat.system).toContain('1080x1920');
    expect(chat.messages[0]!.content).toEqual([
      { type: 'text', text: expect.stringContaining('Request:\nA bouncing ball') },
      { type: 'image', url: 'https://example.com/a.png' },
      { type: 'video', url: 'https://example.com/b.mp4' },
    ]);
  });
});
