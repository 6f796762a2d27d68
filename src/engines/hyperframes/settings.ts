// The HyperFrames engine's own settings (README "Configuration" and "Render cost"), read from the
// worker's environment by the engine registry (through src/config.ts) and handed to every render
// process as `job.settings`.
import path from 'node:path';
import { z } from 'zod';
import { engineSettings } from '../types.js';

export const HYPERFRAMES_QUALITIES = ['draft', 'standard', 'high'] as const;

export const hyperframesSettings = engineSettings(
  z.object({
    /** Chrome (Debian chromium-headless-shell's real binary). */
    CHROME_PATH: z.string().min(1).default('/usr/lib/chromium/chromium-headless-shell'),
    /**
     * The producer's quality level: `draft` captures JPEG 80 and encodes ultrafast, `standard` JPEG 95 and medium,
     * `high` JPEG 95 and slow.
     */
    HYPERFRAMES_QUALITY: z.enum(HYPERFRAMES_QUALITIES).default('draft'),
    /** Browser capture workers per render; 0 lets the producer size them (it calibrates first). */
    HYPERFRAMES_WORKERS: z.coerce.number().int().min(0).max(8).default(1),
    /**
     * Frames the composition's GSAP timeline shows to be still (no tween, clip start or end at or just
     * before them) are not captured again: the producer reuses the previous frame's image (its static-frame
     * dedup, armed for BeginFrame capture by patches/@hyperframes+producer+*.patch).
     */
    HYPERFRAMES_SKIP_HELD_FRAMES: z.enum(['on', 'off']).default('on'),
    /** Page requests go through a refusing proxy (pageNetwork.ts); `off` only to test the network namespace alone. */
    RENDER_PAGE_NETWORK_GUARD: z.enum(['on', 'off']).default('on'),
  }),
  (v) => ({
    chromePath: v.CHROME_PATH,
    quality: v.HYPERFRAMES_QUALITY,
    /** 0: the producer sizes them. */
    workers: v.HYPERFRAMES_WORKERS,
    pageNetworkGuard: v.RENDER_PAGE_NETWORK_GUARD === 'on',
    skipHeldFrames: v.HYPERFRAMES_SKIP_HELD_FRAMES === 'on',
  }),
  // Chrome, wherever CHROME_PATH puts it.
  (settings) => [path.dirname(settings.chromePath)],
);

export type HyperframesSettings = ReturnType<typeof hyperframesSettings.read>;
