// Raw RGBA frames in, H.264 MP4 out: one ffmpeg process fed through stdin. The frames carry
// straight (not premultiplied) alpha, so ffmpeg composites them over a solid background first.
import { spawn } from 'node:child_process';

/** Behind transparent pixels. Lottie files have no background of their own (a solid layer is one). */
export const LOTTIE_BACKGROUND = 'white';

export type EncodeSpec = { width: number; height: number; fps: number; frames: number; outputPath: string; background?: string; crf: number; preset: string };

export function encoderArgs(spec: EncodeSpec): string[] {
  const size = `${spec.width}x${spec.height}`;
  return [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', size, '-framerate', String(spec.fps), '-i', 'pipe:0',
    '-f', 'lavfi', '-i', `color=c=${spec.background ?? LOTTIE_BACKGROUND}:s=${size}:r=${spec.fps}`,
    '-filter_complex', '[1:v][0:v]overlay=shortest=1:format=auto,format=yuv420p[v]',
    '-map', '[v]', '-frames:v', String(spec.frames),
    '-c:v', 'libx264', '-preset', spec.preset, '-crf', String(spec.crf), '-pix_fmt', 'yuv420p',
    '-movflags', '+faststart',
    spec.outputPath,
  ];
}

export type Encoder = { write(frame: Uint8Array): Promise<void>; finish(): Promise<void> };

export function startEncoder(ffmpegPath: string, spec: EncodeSpec): Encoder {
  const ffmpeg = spawn(ffmpegPath, encoderArgs(spec), { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  ffmpeg.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const exited = new Promise<void>((resolve, reject) => {
    ffmpeg.on('error', (err) => reject(new Error(`ffmpeg could not start: ${err.message}`)));
    ffmpeg.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`ffmpeg ${signal ? `killed by ${signal}` : `exited with code ${code}`}: ${stderr.trim()}`)),
    );
  });
  exited.catch(() => {}); // observed by finish() or the next write
  ffmpeg.stdin.on('error', () => {}); // EPIPE when ffmpeg dies; reported through `exited`

  return {
    async write(frame) {
      // The frame is a view into memory the next render overwrites: hand ffmpeg a copy.
      if (!ffmpeg.stdin.write(Buffer.from(frame))) {
        await Promise.race([new Promise((r) => ffmpeg.stdin.once('drain', r)), exited]);
      }
    },
    async finish() {
      ffmpeg.stdin.end();
      await exited;
    },
  };
}
