// ffprobe and ffmpeg, for everything outside the renders' own encoding: probing videos, joining
// chunks, posters and single frames. Every run goes through tools.ts, the one place they are started.
export { extractPoster, frameSsim, imageToPng } from './frames.js';
export { joinChunkFiles } from './join.js';
export { probeMediaVideo, probeVideo, type ProbedVideo, type VideoFacts } from './probe.js';
export {
  ffprobeFor,
  runVideoTool,
  spawnFfmpeg,
  VideoToolError,
  type RunOptions,
  type VideoTool,
  type VideoToolProcess,
} from './tools.js';
