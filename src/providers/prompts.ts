// The conversations sent to chat LLMs: expansion (prompting guide) and composition (contract, canvas,
// duration, the requester's media, and on repair the validator's findings).
import {
  DURATION_TOLERANCE_SECONDS,
  getEngine,
  MAX_DURATION_SECONDS,
  type Finding,
  type MediaAsset,
} from '../engines/index.js';
import { formatBytes } from '../media/limits.js';
import { NARRATION_LINES_FORMAT } from '../storyboard/narration.js';
import { ASSET_URL_PREFIX, isBrandLogo, type BrandSnapshot } from '../shared.js';
import type { MediaKind } from './protocol.js';
import type { Brief, CompositionTask, ExpansionTask, MediaRef } from './types.js';

/** Length asked for when the prompt names none: long enough to say something, quick to render. */
export const DEFAULT_DURATION_SECONDS = 5;
/** Findings sent back in one repair round; the first ones are the most useful. */
const MAX_REPAIR_FINDINGS = 20;

export type ChatPart = { type: 'text'; text: string } | { type: 'image' | 'video'; url: string };
export type ChatMessage = { role: 'user' | 'assistant'; content: ChatPart[] };
/** A protocol-neutral chat: each adapter turns it into its own wire format. */
export type ChatRequest = { system: string; messages: ChatMessage[] };

const text = (t: string): ChatPart => ({ type: 'text', text: t });

/**
 * The prompt and its media. Media stored as the generation's assets are listed with their paths, types
 * and sizes (the composition uses them); a model that can look at images or videos also gets the
 * request's https URLs as parts. Without assets, media the model cannot look at are listed as URLs,
 * for context only.
 */
function briefContent(brief: Brief, accepts: MediaKind[], prompt = brief.text): ChatPart[] {
  // `asset:` parts (data: URL images the API stored) have no URL a provider could fetch.
  const remote = brief.media.filter((m) => !m.url.startsWith(ASSET_URL_PREFIX));
  const seen = remote.filter((m) => accepts.includes(m.kind));
  const described = remote.filter((m) => !accepts.includes(m.kind));
  const assets = brief.assets ?? [];
  let listed = '';
  if (assets.length) listed = `\n\n${assetList(assets, brief.media, accepts)}`;
  else if (described.length) {
    listed =
      `\n\nReference ${described.map((m) => `${m.kind} ${m.url}`).join(', ')} (for context only: ` +
      `the render cannot load remote media).`;
  }
  return [text(prompt + listed), ...seen.map((m): ChatPart => ({ type: m.kind, url: m.url }))];
}

/** "assets/image-1.jpg — image/jpeg, 1200×800, 340 KB, the requester's input image 1" for each asset. */
export function assetList(
  assets: readonly MediaAsset[],
  media: readonly MediaRef[] = [],
  accepts: readonly MediaKind[] = [],
): string {
  const lines = assets.map((a) => {
    if (isBrandLogo(a))
      return (
        `- assets/${a.name} — ${a.mediaType}, ${a.width}×${a.height}, ${formatBytes(a.bytes)}, ` +
        `the organization's brand logo`
      );
    const number = Number(/-(\d+)\./.exec(a.name)?.[1] ?? 0);
    // The nth image part of the request is asset image-n; it is attached when the model looks at that kind and it came
    // as a URL.
    const part = media.filter((m) => m.kind === a.kind)[number - 1];
    const attached =
      part && accepts.includes(a.kind) && !part.url.startsWith(ASSET_URL_PREFIX) ? ', attached below' : '';
    const facts = [
      a.mediaType,
      a.width && a.height ? `${a.width}×${a.height}` : null,
      a.durationSeconds !== null ? `${a.durationSeconds} s` : null,
      formatBytes(a.bytes),
    ].filter(Boolean);
    return (
      `- assets/${a.name} — ${facts.join(', ')}, ` +
      `the requester's input ${a.kind}${number ? ` ${number}` : ''}${attached}`
    );
  });
  return [
    'Media you can use (files served with the composition: refer to each by its path exactly as written, ' +
      'never by a remote URL):',
    ...lines,
  ].join('\n');
}

export function expansionChat(task: ExpansionTask, accepts: MediaKind[]): ChatRequest {
  const { llm } = getEngine(task.engine);
  const system = [
    `You improve prompts for an AI that writes ${llm.description}, ` +
      `which is rendered into a ${task.width}x${task.height} pixel video.`,
    'Rewrite the request below into one detailed, self-contained creative brief following the guide: ' +
      'scenes and their timing in seconds, layout for the canvas, colors, typography, motion and easing. ' +
      'Keep every requirement of the request, and its language. ' +
      'Describe; do not write code. No remote media. Reply with the brief only, without preamble.',
    task.narrate
      ? "The video has a voice-over: give each scene its narration, the request's own words as they are said."
      : 'No audio.',
    task.brief.assets?.length
      ? "The requester's media listed with the request are available to the video: say where each appears, " +
        'naming it by its assets/ path.'
      : '',
    brandGuide(task.brief.brand),
    llm.guide(),
  ]
    .filter(Boolean)
    .join('\n\n');
  const media = task.brief.media.length ? '\n\n(The request comes with the media attached or listed below.)' : '';
  return {
    system,
    messages: [{ role: 'user', content: briefContent(task.brief, accepts, `Request:\n${task.brief.text}${media}`) }],
  };
}

export function compositionChat(task: CompositionTask, accepts: MediaKind[]): ChatRequest {
  const { llm } = getEngine(task.engine);
  const { fence } = llm;
  const system = [
    `You write ${llm.description}. The service renders it into an MP4 video, offline.`,
    llm.contract(),
    [
      '## This video',
      `- Canvas: ${task.width}x${task.height} pixels (width x height). Lay everything out for exactly this size.`,
      task.durationSeconds !== null
        ? `- Duration: exactly ${task.durationSeconds} seconds ` +
          `(compositions off by more than ${DURATION_TOLERANCE_SECONDS} s are rejected).`
        : `- Duration: ${DEFAULT_DURATION_SECONDS} seconds unless the request asks for another length ` +
          `(at most ${MAX_DURATION_SECONDS} seconds).`,
      task.brief.assets?.length
        ? "- Media: show the requester's files listed with the request, by their assets/<name> paths."
        : '',
      task.transparent
        ? '- Transparent: the video has an alpha channel and is laid over other footage. Paint no background, ' +
          'no full-canvas fill and no decorative ornament behind the content: only text, shapes and media.'
        : '',
      task.narrate && llm.narrationPlace
        ? '- Voice-over: a voice reads the narration you write with the composition, ' +
          `${llm.narrationPlace}: ${NARRATION_LINES_FORMAT}. One line per scene, starting as its scene starts, ` +
          "short enough to say before the next line at a calm pace. Say the request's own words in its language " +
          '(figures as they are spoken); claim nothing the request does not say.'
        : '',
    ]
      .filter(Boolean)
      .join('\n'),
    task.brief.instructions ? `## Instructions from the requester\n${task.brief.instructions}` : '',
    brandGuide(task.brief.brand),
    `## Reply format\nReply with the complete composition only, in one \`\`\`${fence} fenced code block, ` +
      `without explanation.`,
  ]
    .filter(Boolean)
    .join('\n\n');
  const messages: ChatMessage[] = [{ role: 'user', content: briefContent(task.brief, accepts) }];
  if (task.repair) {
    messages.push(
      { role: 'assistant', content: [text(`\`\`\`${fence}\n${task.repair.previous}\n\`\`\``)] },
      { role: 'user', content: [text(repairRequest(task.repair.findings, fence))] },
    );
  }
  return { system, messages };
}

/** The organization's brand kit as constraints of the video; '' without one. */
export function brandGuide(brand: BrandSnapshot | null | undefined): string {
  if (!brand) return '';
  const { background, text, accent } = brand.colors;
  const fonts: Record<string, string> = {
    sans: 'a sans-serif face',
    serif: 'a serif face',
    mono: 'a monospace face',
    rounded: 'a rounded sans-serif face',
  };
  const lines = [
    background ? `- Background colour: ${background} (fill the whole canvas with it).` : '',
    text ? `- Text colour: ${text}.` : '',
    accent ? `- Accent colour: ${accent} (highlights, shapes, buttons).` : '',
    brand.font ? `- Type: ${fonts[brand.font]} (${brand.font}) for all text.` : '',
    brand.logo
      ? brand.logo_on_closing
        ? `- Logo: assets/${brand.logo.name} (${brand.logo.width}×${brand.logo.height}); show it, ` +
          `whole and undistorted, on the closing scene.`
        : `- Logo: assets/${brand.logo.name} is available; it need not appear.`
      : '',
  ].filter(Boolean);
  return lines.length
    ? `## Brand (the organization's brand kit: follow it unless the request says otherwise)\n${lines.join('\n')}`
    : '';
}

export function repairRequest(findings: Finding[], fence: string): string {
  const lines = findings.slice(0, MAX_REPAIR_FINDINGS).map((f) => {
    const where = f.location ? ` at ${f.location}` : '';
    const fix = f.fix_hint ? ` Fix: ${f.fix_hint}` : '';
    return `- [${f.code}]${where}: ${f.message}${fix}`;
  });
  const more = findings.length > MAX_REPAIR_FINDINGS ? `\n- … and ${findings.length - MAX_REPAIR_FINDINGS} more` : '';
  return (
    `The validator rejected this composition:\n${lines.join('\n')}${more}\n\n` +
    `Fix every problem and reply with the complete corrected composition only, in one \`\`\`${fence} fenced code block.`
  );
}
