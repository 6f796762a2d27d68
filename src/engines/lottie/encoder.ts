// Raw RGBA frames in, H.264 MP4 out: one ffmpeg process fed through stdin. Frames painted over the
// render's own background (background.ts) are opaque and only converted; frames that still carry
// straight (not premultiplied) alpha are composited over the background colour by ffmpeg.
import { spawnFfmpeg } from '../../video/index.js';
import { LOTTIE_BACKGROUND } from './background.js';

export type EncodeSpec = {
  width: number;
  height: number;
  fps: number;
  frames: number;
  outputPath: string;
  opaque?: boolean;
  /** Keep the frames' alpha: a VP9 WebM (`yuva420p`) at `outputPath`, nothing composited under them. */
  transparent?: boolean;
  crf: number;
  preset: string;
};

/** VP9's quality scale is not x264's: the same visual quality needs a higher number. */
const VP9_CRF_OFFSET = 10;

export function encoderArgs(spec: EncodeSpec): string[] {
  const size = `${spec.width}x${spec.height}`;
  const raw = ['-f', 'rawvideo', '-s', size, '-framerate', String(spec.fps)];
  if (spec.transparent) {
    return [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      ...raw,
      '-pix_fmt',
      'rgba',
      '-i',
      'pipe:0',
      '-frames:v',
      String(spec.frames),
      '-c:v',
      'libvpx-vp9',
      '-pix_fmt',
      'yuva420p',
      '-b:v',
      '0',
      '-crf',
      String(Math.min(63, spec.crf + VP9_CRF_OFFSET)),
      '-row-mt',
      '1',
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
      '-auto-alt-ref',
      '0',
      spec.outputPath,
    ];
  }
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    ...(spec.opaque
      ? // Every alpha byte is 255: read as padding.
        [...raw, '-pix_fmt', 'rgb0', '-i', 'pipe:0']
      : [
          ...raw,
          '-pix_fmt',
          'rgba',
          '-i',
          'pipe:0',
          '-f',
          'lavfi',
          '-i',
          `color=c=${LOTTIE_BACKGROUND}:s=${size}:r=${spec.fps}`,
          '-filter_complex',
          '[1:v][0:v]overlay=shortest=1:format=auto,format=yuv420p[v]',
          '-map',
          '[v]',
        ]),
    '-frames:v',
    String(spec.frames),
    '-c:v',
    'libx264',
    '-preset',
    spec.preset,
    '-crf',
    String(spec.crf),
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    spec.outputPath,
  ];
}

/** `write` takes a frame the caller no longer changes (the same one may be written again: a held frame). */
export type Encoder = { write(frame: Buffer): Promise<void>; finish(): Promise<void> };

export function startEncoder(ffmpegPath: string, spec: EncodeSpec): Encoder {
  const { child: ffmpeg, exited } = spawnFfmpeg(ffmpegPath, encoderArgs(spec));
  exited.catch(() => {}); // observed by finish() or the next write
  ffmpeg.stdin.on('error', () => {}); // EPIPE when ffmpeg dies; reported through `exited`

  return {
    async write(frame) {
      if (!ffmpeg.stdin.write(frame)) {
        await Promise.race([new Promise((r) => ffmpeg.stdin.once('drain', r)), exited]);
      }
    },
    async finish() {
      ffmpeg.stdin.end();
      await exited;
    },
  };
}
