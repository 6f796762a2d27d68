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

/**
 * How a run on untrusted bytes is confined (src/engines/isolation/confine.ts): the command line that runs `argv`
 * with only `inputs` (paths among its arguments) readable and `outputs` (paths among them too) written where it
 * may write; `collect` copies the outputs to their paths once it has ended well, `release` removes the rest.
 */
export type Confinement = (
  argv: string[],
  inputs: string[],
  outputs?: string[],
) => Promise<{
  command: string;
  args: string[];
  env: Record<string, string>;
  collect(): Promise<void>;
  release(): Promise<void>;
}>;

/**
 * `maxBuffer`: bytes of stdout read at most (default 1 MiB); `timeoutMs`: none by default. `confine`: run it confined,
 * `inputs` the files among the arguments it may read (a user's media), `outputs` those it writes.
 */
export type RunOptions = {
  timeoutMs?: number;
  signal?: AbortSignal;
  maxBuffer?: number;
  confine?: Confinement;
  inputs?: string[];
  outputs?: string[];
};

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
  if (opts.confine) return runConfined(ffmpegPath, tool, args, opts, opts.confine);
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
 * A confined run: in a process group of its own (the sandbox's shell, bubblewrap and the tool), all of it killed on
 * timeout or abort; what it wrote to stdout.
 */
async function runConfined(
  ffmpegPath: string,
  tool: VideoTool,
  args: readonly string[],
  opts: RunOptions & { binary?: boolean },
  confine: Confinement,
): Promise<string | Buffer> {
  const confined = await confine([commandOf(ffmpegPath, tool), ...args], opts.inputs ?? [], opts.outputs ?? []);
  try {
    const stdout = await new Promise<string | Buffer>((resolve, reject) => {
      const child = spawn(confined.command, confined.args, {
        env: confined.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const out: Buffer[] = [];
      let outBytes = 0;
      let stderr = '';
      let failure: VideoToolError | null = null;
      const killGroup = (why: VideoToolError) => {
        failure ??= why;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      };
      child.stdout.on('data', (d: Buffer) => {
        outBytes += d.length;
        if (outBytes > (opts.maxBuffer ?? 1 << 20))
          killGroup(new VideoToolError(tool, 'output_too_large', '', 'wrote more output than is read'));
        else out.push(d);
      });
      child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-STDERR_TAIL_CHARS)));
      const timer = opts.timeoutMs
        ? setTimeout(
            () => killGroup(new VideoToolError(tool, 'timed_out', '', `timed out after ${opts.timeoutMs} ms`)),
            opts.timeoutMs,
          )
        : null;
      const onAbort = () => killGroup(new VideoToolError(tool, 'killed', '', 'aborted'));
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      child.once('error', (err) =>
        reject(new VideoToolError(tool, 'not_started', '', `could not start: ${err.message}`)),
      );
      child.once('close', (code, signal) => {
        if (timer) clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        if (opts.signal?.aborted) return reject(opts.signal.reason);
        if (failure) return reject(failure);
        const tail = stderr.trim();
        if (signal) return reject(new VideoToolError(tool, 'killed', tail, `killed by ${signal}`));
        // The sandbox's shell ends with the tool's status (128+n for signal n).
        if (code !== 0)
          return reject(
            code !== null && code > 128
              ? new VideoToolError(tool, 'killed', tail, `killed by signal ${code - 128}`)
              : new VideoToolError(tool, 'exited', tail, `exited with code ${code}`),
          );
        const bytes = Buffer.concat(out);
        resolve(opts.binary ? bytes : bytes.toString('utf8'));
      });
    });
    await confined.collect();
    return stdout;
  } finally {
    await confined.release();
  }
}

/**
 * Runs ffmpeg or ffprobe to its end; what it wrote to stderr, as text: where filters that measure (ebur128,
 * silencedetect, astats) write their results. `maxBuffer` bounds each of stdout and stderr.
 */
export function runVideoToolForLog(
  ffmpegPath: string,
  tool: VideoTool,
  args: readonly string[],
  opts: RunOptions = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      commandOf(ffmpegPath, tool),
      args,
      { encoding: 'utf8', timeout: opts.timeoutMs ?? 0, signal: opts.signal, maxBuffer: opts.maxBuffer ?? 1 << 20 },
      (err, _stdout, stderr) => (err ? reject(runFailure(tool, err, stderr, opts)) : resolve(stderr)),
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
