// A throwaway third engine, registered by the plug-in test only: a clip of one solid colour,
// rendered by ffmpeg alone. It exists to prove that an engine is one folder plus one registry line
// (here ENGINE_PLUGINS, the registry's run-time entry): nothing outside this folder names it, and
// its own setting (SOLID_FRAME_RATE) reaches its render through the same path as the built-in
// engines' settings. For the failure tests, a prompt with the word "crash" makes a composition
// whose validation crashes the way an unexpected bug would (an error naming an internal path).
import crypto from 'node:crypto';
import { z } from 'zod';
import { siblingModule } from '../../../../src/engines/modulePath.js';
import { engineSettings, type EngineModule, type Finding } from '../../../../src/engines/index.js';

export type SolidComposition = { color: string; seconds: number; crash?: true };

export const solidSettings = engineSettings(
  z.object({
    /** Frames per second of its clips. */
    SOLID_FRAME_RATE: z.coerce.number().int().min(1).max(60).default(30),
  }),
  (v) => ({ frameRate: v.SOLID_FRAME_RATE }),
);
export type SolidSettings = ReturnType<typeof solidSettings.read>;

/** What an unexpected failure deep inside looks like: a message naming a path of the machine. */
export const INTERNAL_CRASH_MESSAGE = 'ENOENT: no such file or directory, open /srv/secret/path';

const COLOR = /^#[0-9a-f]{6}$/i;

function validate(source: string): Promise<Finding[]> {
  const finding = (code: string, message: string): Finding[] => [{ code, message, severity: 'error' }];
  let clip: Partial<SolidComposition>;
  try {
    clip = JSON.parse(source) as Partial<SolidComposition>;
  } catch {
    return Promise.resolve(finding('invalid_json', 'The composition is not JSON'));
  }
  if (clip.crash) throw new Error(INTERNAL_CRASH_MESSAGE);
  if (typeof clip.color !== 'string' || !COLOR.test(clip.color))
    return Promise.resolve(finding('invalid_color', 'color must be #rrggbb'));
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
  settings: solidSettings,
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
    return JSON.stringify({
      color,
      seconds: 1,
      ...(/\bcrash\b/i.test(prompt) && { crash: true }),
    } satisfies SolidComposition);
  },
};
