// Inspecting real output: ffprobe on a downloaded video, process trees of the worker.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type VideoFacts = { codec: string; width: number; height: number; frames: number; duration: number };

/** Downloads a URL and reads its first video stream with ffprobe. */
export async function probeUrl(url: string): Promise<VideoFacts & { contentType: string | null; bytes: number }> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url} → ${res.status}`);
  const buf = Buffer.from(await res.arrayBuffer());
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'probe-'));
  try {
    const file = path.join(dir, 'v.mp4');
    await fs.writeFile(file, buf);
    const { stdout } = await run('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-count_frames',
      '-show_entries',
      'stream=codec_name,width,height,nb_read_frames:format=duration',
      '-of',
      'json',
      file,
    ]);
    const j = JSON.parse(stdout);
    const s = j.streams[0];
    return {
      codec: s.codec_name,
      width: s.width,
      height: s.height,
      frames: Number(s.nb_read_frames),
      duration: Number(j.format.duration),
      contentType: res.headers.get('content-type'),
      bytes: buf.length,
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Command names of every descendant of a process. */
export async function descendantCommands(rootPid: number): Promise<string[]> {
  const { stdout } = await run('ps', ['-e', '-o', 'pid=,ppid=,comm=']);
  const rows = stdout
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .map(([pid, ppid, ...comm]) => ({ pid: Number(pid), ppid: Number(ppid), comm: comm.join(' ') }));
  const found: string[] = [];
  const frontier = [rootPid];
  while (frontier.length) {
    const parent = frontier.pop()!;
    for (const r of rows.filter((x) => x.ppid === parent)) {
      found.push(r.comm);
      frontier.push(r.pid);
    }
  }
  return found;
}

export const isRenderProcess = (comm: string) => /chrom|ffmpeg|headless/i.test(comm);

/** Whether Chrome or ffmpeg is running under the process (a render is in progress). */
export const rendering = async (pid: number) => (await descendantCommands(pid)).some(isRenderProcess);

export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not in time: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
