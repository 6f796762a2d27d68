// The one place ffmpeg and ffprobe are started. FFMPEG_PATH (config `render.ffmpegPath`) names
// ffmpeg; ffprobe is the one beside it (else the one on PATH), as the render producer is told too
// (src/engines/isolation/renderProcess.ts). A run that fails throws VideoToolError: which tool, how it
// ended, the end of what it wrote to stderr. A run the caller aborts rejects with the AbortError.
import { execFile, spawn, type ChildProcessByStdio, type ExecFileException } from 'node:child_process';
import path from 'node:path';
import type { Writable, Readable } from 'node:stream';

export type VideoTool = 'ffmpeg' | 'ffprobe';

/** Of stderr, the end is kept: ffmpeg's last lines say why it stopped. */
const STDERR_TAIL_CHARS = 2000;

/** ffprobe next to the configured ffmpeg (same directory), else from PATH. */
export function ffprobeFor(ffmpegPath: string): string {
  return ffmpegPath.includes('/') ? path.join(path.dirname(ffmpegPath), 'ffprobe') : 'ffprobe';
}

const commandOf = (ffmpegPath: string, tool: VideoTool) => (tool === 'ffmpeg' ? ffmpegPath : ffprobeFor(ffmpegPath));

/** How a run of ffmpeg or ffprobe failed. */
export class VideoToolError extends Error {
  constructor(
    readonly tool: VideoTool,
    /**
     * Why it stopped: it could not start, ran out of time, wrote more than the caller reads, exited with an error code,
     * or was killed.
     */
    readonly reason: 'not_started' | 'timed_out' | 'output_too_large' | 'exited' | 'killed',
    /** The end of what it wrote to stderr, trimmed ('' when nothing). */
    readonly stderr: string,
    detail: string,
  ) {
    super(`${tool} ${detail}${stderr ? `: ${stderr}` : ''}`);
    this.name = 'VideoToolError';
  }
}

/** `maxBuffer`: bytes of stdout read at most (default 1 MiB); `timeoutMs`: none by default. */
export type RunOptions = { timeoutMs?: number; signal?: AbortSignal; maxBuffer?: number };

function runFailure(tool: VideoTool, err: ExecFileException, output: string, opts: RunOptions): Error {
  if (err.name === 'AbortError' || opts.signal?.aborted) return err;
  const stderr = output.trim().slice(-STDERR_TAIL_CHARS);
  if (err.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
    return new VideoToolError(tool, 'output_too_large', stderr, 'wrote more output than is read');
  if (typeof err.code === 'string')
    return new VideoToolError(tool, 'not_started', '', `could not start: ${err.message}`);
  if (err.killed && opts.timeoutMs)
    return new VideoToolError(tool, 'timed_out', stderr, `timed out after ${opts.timeoutMs} ms`);
  if (err.signal) return new VideoToolError(tool, 'killed', stderr, `killed by ${err.signal}`);
  return new VideoToolError(tool, 'exited', stderr, `exited with code ${err.code}`);
}

/** Runs ffmpeg or ffprobe to its end; what it wrote to stdout, as text. */
export function runVideoTool(
  ffmpegPath: string,
  tool: VideoTool,
  args: readonly string[],
  opts?: RunOptions,
): Promise<string>;
/** Runs ffmpeg or ffprobe to its end; what it wrote to stdout, as bytes. */
export function runVideoTool(
  ffmpegPath: string,
  tool: VideoTool,
  args: readonly string[],
  opts: RunOptions & { binary: true },
): Promise<Buffer>;
export function runVideoTool(
  ffmpegPath: string,
  tool: VideoTool,
  args: readonly string[],
  opts: RunOptions & { binary?: boolean } = {},
): Promise<string | Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      commandOf(ffmpegPath, tool),
      args,
      {
        encoding: opts.binary ? 'buffer' : 'utf8',
        timeout: opts.timeoutMs ?? 0,
        signal: opts.signal,
        maxBuffer: opts.maxBuffer ?? 1 << 20,
      },
      (err, stdout, stderr) => (err ? reject(runFailure(tool, err, String(stderr), opts)) : resolve(stdout)),
    );
  });
}

/**
 * A running ffmpeg fed through stdin (the engines' encoders); `exited` settles when it ends, rejecting with a
 * VideoToolError.
 */
export type VideoToolProcess = { child: ChildProcessByStdio<Writable, null, Readable>; exited: Promise<void> };

/** Starts ffmpeg reading stdin, its stdout ignored. */
export function spawnFfmpeg(ffmpegPath: string, args: readonly string[]): VideoToolProcess {
  const child = spawn(ffmpegPath, args, { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-STDERR_TAIL_CHARS)));
  const exited = new Promise<void>((resolve, reject) => {
    child.on('error', (err) =>
      reject(new VideoToolError('ffmpeg', 'not_started', '', `could not start: ${err.message}`)),
    );
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else if (signal) reject(new VideoToolError('ffmpeg', 'killed', stderr.trim(), `killed by ${signal}`));
      else reject(new VideoToolError('ffmpeg', 'exited', stderr.trim(), `exited with code ${code}`));
    });
  });
  return { child, exited };
}
