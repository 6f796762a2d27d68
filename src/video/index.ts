// ffprobe and ffmpeg, for everything outside the renders' own encoding: probing videos, joining
// chunks, posters, thumbnails, sprite sheets, other formats and single frames, probing and measuring sound,
// muxing the mix into a video. Every run goes through tools.ts, the one place they are started.
export {
  AAC_BITRATE,
  measureLoudness,
  muxAudio,
  parseEbur128Summaries,
  probeAudio,
  SAMPLE_RATE,
  type Loudness,
  type ProbedAudio,
} from './audio.js';
export { frameSsim, imageToPng } from './frames.js';
export { convertToGif, convertToWebm, GIF_COLOURS, GIF_MAX_FPS, overlayVideo } from './convert.js';
export { joinChunkFiles } from './join.js';
export { extractPreviews, SPRITE_COLUMNS, SPRITE_ROWS, SPRITE_TILE_WIDTH, type PreviewFiles } from './previews.js';
export { probeMediaVideo, probeVideo, type ProbedVideo, type VideoFacts } from './probe.js';
export {
  ffprobeFor,
  runVideoTool,
  runVideoToolForLog,
  spawnFfmpeg,
  VideoToolError,
  type Confinement,
  type RunOptions,
  type VideoTool,
  type VideoToolProcess,
} from './tools.js';
