// Helpers of the engine tests: real ffmpeg/ffprobe checks of rendered files and a watcher of the
// processes a test starts (to prove none is left behind).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { closeRenderProcesses } from '../../src/engines/isolation/renderProcess.js';
import { renderTools, type RenderTools } from '../../src/engines/index.js';
import { storyboardSchema, toStoryboard } from '../../src/storyboard/schema.js';
import type { Storyboard } from '../../src/storyboard/types.js';

const run = promisify(execFile);

/** Chrome, ffmpeg and the time limit from the configuration, as the render worker passes them. */
export const tools: RenderTools = renderTools(loadConfig());

/** RGB24 pixels of frame `n` of a video, decoded by ffmpeg. */
export async function decodeFrame(file: string, n: number): Promise<Buffer> {
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-i',
      file,
      '-vf',
      `select=eq(n\\,${n})`,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 64 << 20 },
  );
  return stdout as unknown as Buffer;
}

/** Distinct colours (coarsely quantised) in a frame: 1 means a blank frame. */
export function colourCount(rgb: Buffer): number {
  const seen = new Set<number>();
  for (let i = 0; i < rgb.length; i += 3)
    seen.add(((rgb[i]! >> 4) << 8) | ((rgb[i + 1]! >> 4) << 4) | (rgb[i + 2]! >> 4));
  return seen.size;
}

/** Mean absolute difference per byte between two frames. */
export function meanDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

type Proc = { pid: number; ppid: number; pgid: number; comm: string };

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (f[0] === 'Z' || f[0] === 'X') continue;
      out.push({ pid: Number(name), ppid: Number(f[1]), pgid: Number(f[2]), comm });
    } catch {
      // gone
    }
  }
  return out;
}

/**
 * Records every descendant of this test process (and the process groups they lead) while it runs,
 * independently of the code under test. `leftovers()` lists those still alive afterwards.
 */
export function watchDescendants(intervalMs = 100) {
  const seenPids = new Map<number, string>();
  const seenGroups = new Set<number>();
  const ownGroup = processes().find((p) => p.pid === process.pid)?.pgid;
  const descendants = () => {
    const all = processes();
    const children = new Map<number, Proc[]>();
    for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
    const found: Proc[] = [];
    const stack = [...(children.get(process.pid) ?? [])];
    while (stack.length) {
      const p = stack.pop()!;
      found.push(p);
      stack.push(...(children.get(p.pid) ?? []));
    }
    return found;
  };
  // The test runner's own module transformer (esbuild, started on demand) is not the code under test.
  const ours = (p: Proc) => p.comm !== 'esbuild';
  const sample = () => {
    for (const p of descendants().filter(ours)) {
      seenPids.set(p.pid, p.comm);
      if (p.pgid !== ownGroup) seenGroups.add(p.pgid);
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop: () => clearInterval(timer),
    /** Descendants alive now. */
    pids: () => descendants(),
    seen: () => [...seenPids.values()],
    /** Processes seen (or in groups seen) that are still alive, apart from `except` (idle spare render processes). */
    leftovers: (except: number[] = []) =>
      processes()
        .filter((p) => ours(p) && (seenPids.has(p.pid) || seenGroups.has(p.pgid)) && !except.includes(p.pid))
        .map((p) => `${p.pid} ${p.comm}`),
  };
}

/** A fresh temp directory that becomes os.tmpdir() for this test file (render work dirs go there). */
export function isolateTmpdir(): { dir: string; entries: () => string[]; restore: () => void } {
  const before = process.env.TMPDIR;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engine-test-tmp-'));
  fs.chmodSync(dir, 0o755); // render work directories inside must be reachable by the render user
  process.env.TMPDIR = dir;
  return {
    dir,
    entries: () => fs.readdirSync(dir),
    restore: () => {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The per-file render sandbox: an output directory for finished videos, and an isolated os.tmpdir()
 * that must hold nothing `isLeftover` after the file's renders (their work directories are gone).
 */
export function useRenderSandbox(name: string, isLeftover: (entry: string) => boolean) {
  let tmp: ReturnType<typeof isolateTmpdir>;
  const sandbox = { out: '', entries: () => tmp.entries() };
  beforeAll(() => {
    sandbox.out = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-out-`));
    tmp = isolateTmpdir();
  });
  afterAll(async () => {
    await closeRenderProcesses(); // idle spares would start writing tsx's cache into the test's temp dir
    try {
      expect(tmp.entries().filter(isLeftover)).toEqual([]);
    } finally {
      tmp.restore();
      fs.rmSync(sandbox.out, { recursive: true, force: true });
    }
  });
  return sandbox;
}

export const fixture = (name: string) => fs.readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** Waits until `predicate` holds or `ms` pass; returns whether it held. */
export async function waitFor(predicate: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (predicate()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return predicate();
}

/**
 * Tesseract's reading of one frame, given as black text on white: the pixels near the colour `ink`
 * (the look's text colour, whatever the background, its gradients and ornaments) become ink.
 */
export async function ocrFrame(
  video: string,
  frame: number,
  size: { width: number; height: number },
  ink: string,
  lang: string,
): Promise<string> {
  const rgb = await decodeFrame(video, frame);
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(ink.slice(i, i + 2), 16));
  const gray = Buffer.alloc(size.width * size.height);
  for (let p = 0; p < gray.length; p++) {
    const d = Math.abs(rgb[3 * p]! - r!) + Math.abs(rgb[3 * p + 1]! - g!) + Math.abs(rgb[3 * p + 2]! - b!);
    gray[p] = d < 120 ? 0 : 255;
  }
  const pgm = `${video}.${frame}.pgm`;
  fs.writeFileSync(pgm, Buffer.concat([Buffer.from(`P5 ${size.width} ${size.height} 255\n`), gray]));
  // psm 11: sparse text (a title on an otherwise empty canvas defeats the page layout analysis of psm 3).
  const { stdout } = await promisify(execFile)('tesseract', [pgm, '-', '-l', lang, '--psm', '11'], {
    maxBuffer: 1 << 20,
  });
  return stdout;
}

/** The pictogram tests' storyboard: a title and a list with their icons, then a statement with `icon: null` or none. */
export function pictogramBoard(third: { icon?: null }): Storyboard {
  const sb = toStoryboard(
    storyboardSchema.parse({
      scenes: [
        { kind: 'title', title: 'Fresh coffee every morning', subtitle: 'Open from seven', icon: 'coffee' },
        { kind: 'list', heading: 'In the café', items: ['Fast Wi-Fi', 'Quiet corners', 'Big tables'], icon: 'wifi' },
        { kind: 'statement', text: 'Come in and stay a while.' },
      ].map((x) => ({ ...x, seconds: 2 })),
      look: { name: 'midnight' },
    }),
    { image: () => null },
  );
  return { ...sb, scenes: sb.scenes.map((x, i) => (i === 2 ? { ...x, ...third } : x)) };
}

/** The comparison cards tests' storyboard: three plans with a price each and the same `features`. */
export function comparisonBoard(features: string[], direction?: 'rtl'): Storyboard {
  return toStoryboard(
    storyboardSchema.parse({
      ...(direction && { direction }),
      scenes: [
        {
          kind: 'comparison',
          options: [
            { name: 'Basic', figure: '9 €', features },
            { name: 'Plus', figure: '19 €', features },
            { name: 'Max', figure: '29 €', features },
          ],
        },
      ],
    }),
    { image: () => null },
  );
}
