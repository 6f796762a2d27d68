// The Lottie engine's own settings (README "Configuration" and "Render cost"), read from the worker's
// environment by the engine registry (through src/config.ts) and handed to every render process as
// `job.settings`.
import { z } from 'zod';
import { engineSettings } from '../types.js';

export const X264_PRESETS = ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow'] as const;

export const lottieSettings = engineSettings(
  z.object({
    /** x264 preset of the encode: slower presets cost more CPU for smaller files at the same CRF. */
    LOTTIE_X264_PRESET: z.enum(X264_PRESETS).default('veryfast'),
    /**
     * Frames whose animated properties hold still are not drawn again (the encoder gets the previous frame); `off`
     * draws every frame.
     */
    LOTTIE_SKIP_HELD_FRAMES: z.enum(['on', 'off']).default('on'),
  }),
  (v) => ({ x264Preset: v.LOTTIE_X264_PRESET, skipHeldFrames: v.LOTTIE_SKIP_HELD_FRAMES === 'on' }),
);

export type LottieSettings = ReturnType<typeof lottieSettings.read>;
