// Child side of the solid-colour test engine: ffmpeg's colour source, encoded to H.264.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { ChildRenderer } from '../../../../src/engines/isolation/protocol.js';
import type { SolidComposition, SolidSettings } from './index.js';

const run = promisify(execFile);

export const render: ChildRenderer<SolidSettings> = async (job, { onProgress }) => {
  const { color, seconds } = JSON.parse(job.source) as SolidComposition;
  const fps = job.fps ?? job.settings.frameRate;
  const source = `color=c=${color}:s=${job.width}x${job.height}:r=${fps}:d=${seconds}`;
  await run(job.ffmpegPath, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    source,
    '-c:v',
    'libx264',
    '-crf',
    String(job.crf),
    '-pix_fmt',
    'yuv420p',
    job.outputPath,
  ]);
  onProgress({ stage: 'encoding', fraction: 1, framesRendered: null, framesTotal: null });
};
