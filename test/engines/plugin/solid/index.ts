// A throwaway third engine, registered by the plug-in test only: a clip of one solid colour,
// rendered by ffmpeg alone. It exists to prove that an engine is one folder plus one registry line
// (here ENGINE_PLUGINS, the registry's run-time entry): nothing outside this folder names it.
import crypto from 'node:crypto';
import { siblingModule } from '../../../../src/engines/modulePath.js';
import type { EngineModule, Finding } from '../../../../src/engines/index.js';

export type SolidComposition = { color: string; seconds: number };

const COLOR = /^#[0-9a-f]{6}$/i;

function validate(source: string): Promise<Finding[]> {
  const finding = (code: string, message: string): Finding[] => [{ code, message, severity: 'error' }];
  let clip: Partial<SolidComposition>;
  try {
    clip = JSON.parse(source) as Partial<SolidComposition>;
  } catch {
    return Promise.resolve(finding('invalid_json', 'The composition is not JSON'));
  }
  if (typeof clip.color !== 'string' || !COLOR.test(clip.color)) return Promise.resolve(finding('invalid_color', 'color must be #rrggbb'));
  if (typeof clip.seconds !== 'number' || !(clip.seconds > 0 && clip.seconds <= 60)) {
    return Promise.resolve(finding('invalid_duration', 'seconds must be a number in (0, 60]'));
  }
  return Promise.resolve([]);
}

function outermostObject(text: string): string {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start !== -1 && end > start ? text.slice(start, end + 1) : text;
}

export const engine: EngineModule = {
  id: 'solid',
  name: 'Solid colour (test engine)',
  premiumMultiplier: 0.5,
  artifact: { mediaType: 'application/json', extension: 'json' },
  autoKeywords: ['monochrome'],
  validate,
  renderEntry: siblingModule(import.meta.url, 'renderInChild'),
  llm: {
    description: 'a solid-colour clip as JSON',
    fence: 'json',
    fenceLanguages: ['json'],
    trimToComposition: outermostObject,
    contract: () => 'Reply with {"color": "#rrggbb", "seconds": <number up to 60>}.',
    guide: () => 'Describe the one colour the whole clip shows, and how long it lasts.',
  },
  composeOffline: ({ prompt }) => {
    const color = `#${crypto.createHash('sha256').update(prompt).digest('hex').slice(0, 6)}`;
    return JSON.stringify({ color, seconds: 1 } satisfies SolidComposition);
  },
};
