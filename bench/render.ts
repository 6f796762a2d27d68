// Render benchmark: what a render costs, and what each setting changes.
//   npx tsx bench/render.ts [--mode bare|settings|chunks|composer] [--reps N] [--engines hyperframes,lottie]
//                           [--durations 3,6] [--sizes 1080x1920,1920x1080] [--candidates …] [--chunks 2]
//                           [--before <checkout>] [--prompts <corpus ids>] [--length natural|<seconds>]
// Each render's process tree (render process, Chrome, ffmpeg) is sampled every 100 ms from /proc: wall
// time, frames per second, peak RSS, and the CPU seconds it used (a figure other load on the machine
// does not distort), also split by what each process does (processRole).
// - `--mode bare` (issue 3): our path — getEngine(id).render(): validation, an isolated render process
//   (the warm spare the previous render left, as in a worker rendering one job after another), ffprobe
//   of the result — against the bare library in a plain Node process on the same source and settings:
//   @hyperframes/producer's executeRenderJob on the prepared project, or dotlottie-web frames piped
//   into ffmpeg with the same encoder arguments. Its time covers the render call only.
// - `--mode settings` (issue 18): our path under encoding settings (RENDER_CRF and each engine's own
//   settings): `before` (the settings before issue 18), `after` (this checkout's defaults)
//   and any `--candidates "name:VAR=value,VAR=value;…"` (config variables), each scored by SSIM
//   (ffmpeg's ssim filter, mean over frames, and its worst frame) against a near-lossless reference
//   render of the same composition (CRF 0, the best capture), with the file size.
// - `--mode composer` (issue 30): the embedded composer's compositions of corpus prompts (`--prompts`,
//   ids of test/storyboard/corpus/) from this checkout and from `--before <checkout>` (its own
//   src/engines composers, with node_modules), both asked for the length `--durations` names and
//   rendered by this checkout's engines, alternating A B B A: CPU seconds and wall seconds per second of
//   video, so a new composer's cost shows apart from the engines'.
// - `--mode engines` (issue 34): the embedded composer's compositions of corpus prompts (`--prompts`)
//   rendered by `--before <checkout>`'s engines (or, with `--before skip-off`, by this checkout's with
//   held-frame skipping off) and by this checkout's, alternating: CPU and wall
//   seconds per video-second, the share of frames the render skipped (its own report), SSIM of this
//   checkout's video against the before video (mean and worst frame), and whether frame counts and
//   durations agree.
// - `--mode chunks` (issue 18): one video rendered in one piece, then as `--chunks` chunks at once
//   (the render slots of this machine) and joined, with the SSIM of the joined video against the
//   one-piece render at every chunk boundary; then chunks of other lengths each rendered alone, as
//   on a dedicated render worker, fitting a chunk's wall time to fixed + per-frame cost: the
//   capacity model (README "Chunked rendering"). Its prediction for one chunk length left out of the
//   fit is checked against that chunk's measured time; it predicts the video on 4 and 16 workers.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { planChunks, splitFrames } from '../src/engines/chunks.js';
import { getEngine, renderTools } from '../src/engines/index.js';
import { prepareComposition } from '../src/engines/hyperframes/prepare.js';
import { producerRenderConfig } from '../src/engines/hyperframes/renderInChild.js';
import { VENDOR_DIR } from '../src/engines/hyperframes/vendor.js';
import { listProcesses } from '../src/engines/isolation/processTree.js';
import { closeRenderProcesses } from '../src/engines/isolation/renderProcess.js';
import { encoderArgs } from '../src/engines/lottie/encoder.js';
import { outlineText } from '../src/engines/lottie/text.js';
import { outputFrames } from '../src/engines/lottie/timing.js';
import { frameSsim, joinChunkFiles, probeVideo } from '../src/video/index.js';
import type { LottieAnimation } from '../src/engines/lottie/validate.js';
import type { HyperframesSettings } from '../src/engines/hyperframes/settings.js';
import type { LottieSettings } from '../src/engines/lottie/settings.js';
import type { RenderChunk, RenderTools } from '../src/engines/types.js';
import type { EngineId } from '../src/shared.js';

const FPS = 30;
const { values: args } = parseArgs({
  options: {
    mode: { type: 'string', default: 'bare' },
    reps: { type: 'string', default: '2' },
    engines: { type: 'string', default: 'hyperframes,lottie' },
    durations: { type: 'string', default: '3,6' },
    sizes: { type: 'string', default: '1080x1920' },
    candidates: { type: 'string', default: '' },
    chunks: { type: 'string', default: '2' },
    before: { type: 'string' },
    prompts: { type: 'string', default: 'en-howto-router,es-ad-bakery,ja-countdown,de-results' },
    /** Lengths of the compositions in `--mode engines` (seconds); `natural`: the storyboard's own. */
    length: { type: 'string', default: 'natural' },
  },
});
const reps = Number(args.reps);
const ENGINES = args.engines.split(',') as EngineId[];
const DURATIONS = args.durations.split(',').map(Number);
const SIZES = args.sizes.split(',').map((s) => s.split('x').map(Number) as [number, number]);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const config = loadConfig();
/** This checkout's render settings, the engines' own included. */
const configTools = renderTools(config);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-render-'));

/** Render settings from config variables on top of this checkout's defaults. */
const settings = (vars: Record<string, string>): RenderTools => renderTools(loadConfig({ ...process.env, ...vars }));
const hyperframesSettings = (tools: RenderTools) =>
  tools.engineSettings(getEngine('hyperframes')) as HyperframesSettings;
const lottieSettings = (tools: RenderTools) => tools.engineSettings(getEngine('lottie')) as LottieSettings;
/** What a settings candidate sets, for the log. */
const describeSettings = (tools: RenderTools) =>
  JSON.stringify({ crf: tools.crf, hyperframes: hyperframesSettings(tools), lottie: lottieSettings(tools) });
/** The settings every render used before issue 18 (its "before" figures). */
const BEFORE = settings({
  RENDER_CRF: '18',
  LOTTIE_X264_PRESET: 'veryfast',
  HYPERFRAMES_QUALITY: 'standard',
  HYPERFRAMES_WORKERS: '0',
});
/** Near-lossless: the best capture, CRF 0 (lossless after the conversion to yuv420p). */
const REFERENCE = settings({
  RENDER_CRF: '0',
  LOTTIE_X264_PRESET: 'ultrafast',
  HYPERFRAMES_QUALITY: 'high',
  HYPERFRAMES_WORKERS: '1',
});

// ---------- compositions ----------

function hyperframesSource(seconds: number, width: number, height: number): string {
  // Laid out for 1080x1920 and scaled to the canvas.
  const x = (v: number) => Math.round((v * width) / 1080);
  const y = (v: number) => Math.round((v * height) / 1920);
  const font = Math.round(96 * Math.min(width / 1080, height / 1920));
  const cards = Array.from({ length: 6 }, (_, i) => `<div class="card" id="c${i}">Scene ${i + 1}</div>`).join('\n');
  return `<!doctype html><html><head><meta charset="UTF-8">
<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"></script>
<style>
  * { margin: 0; box-sizing: border-box; }
  html, body { width: ${width}px; height: ${height}px; overflow: hidden; \
background: linear-gradient(160deg, #0b1020, #3a1c71); }
  .card { position: absolute; left: ${x(90)}px; width: ${x(900)}px; height: ${y(220)}px; border-radius: 32px; \
background: rgba(255,255,255,0.12);
          color: #fff; font: 700 ${font}px Inter, sans-serif; display: flex; align-items: center; \
justify-content: center; }
  ${[100, 400, 700, 1000, 1300, 1600].map((top, i) => `#c${i} { top: ${y(top)}px }`).join(' ')}
  #orb { position: absolute; width: ${x(300)}px; height: ${x(300)}px; border-radius: 50%; left: ${x(390)}px; \
top: ${y(810)}px; background: radial-gradient(#ffd452, #ff4e50); }
</style></head><body>
<div id="root" data-composition-id="bench" data-start="0" data-duration="${seconds}" \
data-width="${width}" data-height="${height}">
${cards}
<div id="orb"></div>
</div>
<script>
  const tl = gsap.timeline({ paused: true });
  tl.from('.card', { x: -${x(1100)}, opacity: 0, duration: 0.8, stagger: 0.15, ease: 'power3.out' }, 0);
  tl.to('#orb', { rotation: 720, scale: 1.6, duration: ${seconds}, ease: 'none' }, 0);
  tl.to('.card', { y: '+=60', duration: ${(seconds - 1) / 2}, yoyo: true, repeat: 1, ease: 'sine.inOut' }, 1);
  window.__timelines = window.__timelines || {};
  window.__timelines['bench'] = tl;
</script></body></html>`;
}

function lottieSource(seconds: number, width: number, height: number): string {
  const frames = seconds * FPS;
  // Laid out for 1080x1920 and scaled to the canvas.
  const at = ([px, py, pz]: number[]) => [Math.round((px! * width) / 1080), Math.round((py! * height) / 1920), pz!];
  const ks = (p: unknown, r: unknown = { a: 0, k: 0 }) => ({
    o: { a: 0, k: 100 },
    r,
    p,
    a: { a: 0, k: [0, 0, 0] },
    s: { a: 0, k: [100, 100, 100] },
  });
  const ease = { i: { x: 0.4, y: 1 }, o: { x: 0.6, y: 0 } };
  const moving = (from: number[], to: number[]) => ({
    a: 1,
    k: [
      { t: 0, s: at(from), ...ease },
      { t: frames - 1, s: at(to) },
    ],
  });
  const turning = (degrees: number) => ({
    a: 1,
    k: [
      { t: 0, s: [0], ...ease },
      { t: frames - 1, s: [degrees] },
    ],
  });
  const shape = (ind: number, kind: 'rc' | 'el', colour: number[], p: unknown, r?: unknown) => ({
    ty: 4,
    ind,
    nm: `shape${ind}`,
    ip: 0,
    op: frames,
    st: 0,
    ks: ks(p, r),
    shapes: [
      {
        ty: 'gr',
        it: [
          kind === 'rc'
            ? { ty: 'rc', d: 1, s: { a: 0, k: [360, 360] }, p: { a: 0, k: [0, 0] }, r: { a: 0, k: 48 } }
            : { ty: 'el', d: 1, s: { a: 0, k: [420, 420] }, p: { a: 0, k: [0, 0] } },
          { ty: 'fl', c: { a: 0, k: colour }, o: { a: 0, k: 100 }, r: 1 },
          {
            ty: 'tr',
            p: { a: 0, k: [0, 0] },
            a: { a: 0, k: [0, 0] },
            s: { a: 0, k: [100, 100] },
            r: { a: 0, k: 0 },
            o: { a: 0, k: 100 },
          },
        ],
      },
    ],
  });
  const anim = {
    v: '5.7.4',
    fr: FPS,
    ip: 0,
    op: frames,
    w: width,
    h: height,
    nm: 'bench',
    assets: [],
    fonts: { list: [{ fName: 'Inter-Bold', fFamily: 'Inter', fStyle: 'Bold', ascent: 75 }] },
    layers: [
      {
        ty: 5,
        ind: 1,
        nm: 'title',
        ip: 0,
        op: frames,
        st: 0,
        ks: ks(moving([120, 300, 0], [120, 1700, 0])),
        t: {
          d: {
            k: [
              {
                t: 0,
                s: { s: 120, f: 'Inter-Bold', t: 'Benchmark', j: 0, tr: 0, lh: 140, ls: 0, fc: [0.1, 0.1, 0.3] },
              },
            ],
          },
          p: {},
          m: { g: 1, a: { a: 0, k: [0, 0] } },
          a: [],
        },
      },
      shape(2, 'rc', [0.9, 0.2, 0.3, 1], moving([240, 400, 0], [840, 1500, 0]), turning(720)),
      shape(3, 'el', [0.2, 0.5, 0.95, 1], moving([840, 1500, 0], [240, 400, 0])),
      shape(4, 'rc', [0.98, 0.8, 0.2, 1], moving([540, 200, 0], [540, 1700, 0]), turning(-360)),
    ],
  };
  return JSON.stringify(anim);
}

// ---------- bare engines (plain Node, no TypeScript) ----------

const BARE_HYPERFRAMES = `
import { createRenderJob, executeRenderJob } from '@hyperframes/producer';
const [projectDir, out, configJson] = process.argv.slice(1);
const quiet = { error() {}, warn() {}, info() {}, debug() {} };
const started = performance.now();
const job = createRenderJob({ ...JSON.parse(configJson), logger: quiet });
await executeRenderJob(job, projectDir, out);
console.log(JSON.stringify({ ms: performance.now() - started, frames: job.totalFrames }));
process.exit(0);
`;

const BARE_LOTTIE = `
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import { DotLottie } from '@lottiefiles/dotlottie-web';
const [sourceFile, width, height, fps, frames, ffmpeg, argsJson, wasmPath] = process.argv.slice(1);
const wasm = fs.readFileSync(wasmPath);
globalThis.fetch = async () => new Response(wasm, { headers: { 'content-type': 'application/wasm' } });
DotLottie.setWasmUrl('http://local.invalid/dotlottie-player.wasm');
const json = fs.readFileSync(sourceFile, 'utf8');
const started = performance.now();
const player = new DotLottie({
  canvas: { width: Number(width), height: Number(height) }, data: json, autoplay: false, loop: false,
  useFrameInterpolation: true, layout: { fit: 'contain', align: [0.5, 0.5] },
});
await new Promise((resolve) => player.addEventListener('load', resolve));
const enc = spawn(ffmpeg, JSON.parse(argsJson), { stdio: ['pipe', 'ignore', 'inherit'] });
const done = new Promise((resolve) => enc.on('exit', resolve));
const fr = JSON.parse(json).fr;
for (let k = 0; k < Number(frames); k++) {
  player.setFrame(Math.min(player.totalFrames - 1, (k * fr) / Number(fps)));
  if (!enc.stdin.write(Buffer.from(player.buffer))) await new Promise((r) => enc.stdin.once('drain', r));
}
enc.stdin.end();
await done;
console.log(JSON.stringify({ ms: performance.now() - started, frames: Number(frames) }));
process.exit(0);
`;

// ---------- measuring ----------

type TreeUsage = { peakRssMb: number; cpuSeconds: number; cpuByRole: Record<string, number> };

/**
 * What a process of a render does, from its command line: Chrome's renderer runs the page (layout,
 * GSAP, paint), its GPU process rasterises and composites (software GL here) and encodes the
 * captured JPEG, the browser process drives capture; ffmpeg encodes (or only muxes, a stream copy);
 * the Node render process moves frames (CDP screenshots in, ffmpeg's stdin out) and, for Lottie,
 * rasterises every frame with ThorVG (WASM).
 */
const DEV_ONLY = 'esbuild (dev only)';

function processRole(pid: number): string {
  let argv: string[];
  try {
    // Chrome's zygote children retitle themselves: one space-separated string in place of argv.
    argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').split(/\0| /);
  } catch {
    return 'other';
  }
  const exe = argv[0] === '/proc/self/exe' ? 'chrome' : path.basename(argv[0] ?? '');
  if (exe.includes('ffmpeg')) return argv.includes('libx264') ? 'ffmpeg encode' : 'ffmpeg mux/probe';
  if (/chrom|headless/.test(exe)) {
    const type = argv.find((a) => a.startsWith('--type='))?.slice('--type='.length);
    return type === 'renderer'
      ? 'chrome renderer'
      : type === 'gpu-process'
        ? 'chrome gpu'
        : type
          ? `chrome ${type}`
          : 'chrome browser';
  }
  // tsx's compiler: compiles TypeScript as processes start in development; the built image has none.
  if (exe === 'esbuild') return DEV_ONLY;
  if (exe === 'node' || argv.some((a) => a.endsWith('childEntry.mjs'))) return 'node render process';
  return exe === 'bwrap' || exe === 'setpriv' || exe === 'sh' ? 'sandbox' : exe || 'other';
}

/**
 * Peak summed RSS and CPU time of this process's descendants (and the process groups they start)
 * while `fn` runs, sampled every 100 ms. CPU time is robust to other load on the machine; a
 * process's last <100 ms and very short-lived processes (ffprobe) are not counted.
 */
async function withTreeUsage<T>(fn: () => Promise<T>): Promise<{ value: T } & TreeUsage> {
  const groups = new Set<number>();
  const cpu = new Map<number, number>();
  const roles = new Map<number, string>();
  let peak = 0;
  const sample = () => {
    const all = listProcesses('-');
    const byParent = new Map<number, typeof all>();
    for (const p of all) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
    const members = new Map<number, (typeof all)[number]>();
    const stack = [...(byParent.get(process.pid) ?? [])];
    while (stack.length) {
      const p = stack.pop()!;
      members.set(p.pid, p);
      groups.add(p.pgid);
      stack.push(...(byParent.get(p.pid) ?? []));
    }
    for (const p of all) if (groups.has(p.pgid) && p.pid !== process.pid) members.set(p.pid, p);
    for (const p of members.values()) {
      cpu.set(p.pid, p.cpuSeconds);
      // Read at every sample: a process can exec (the sandbox's shell becomes Node) or, forked by
      // Chrome's zygote, take its type later.
      const role = processRole(p.pid);
      if (role !== 'other' || !roles.has(p.pid)) roles.set(p.pid, role); // 'other': gone before it was read
    }
    peak = Math.max(
      peak,
      [...members.values()].reduce((sum, p) => sum + p.rssBytes, 0),
    );
  };
  const parentCpuBefore = process.cpuUsage();
  const timer = setInterval(sample, 100);
  try {
    const value = await fn();
    sample();
    // Our path also validates and probes in this process: charge its CPU time too.
    const parent = process.cpuUsage(parentCpuBefore);
    const parentSeconds = (parent.user + parent.system) / 1e6;
    const cpuSeconds = [...cpu.values()].reduce((a, b) => a + b, 0) + parentSeconds;
    const cpuByRole: Record<string, number> = { 'bench process (validation, probe)': parentSeconds };
    for (const [pid, seconds] of cpu) cpuByRole[roles.get(pid)!] = (cpuByRole[roles.get(pid)!] ?? 0) + seconds;
    return { value, peakRssMb: peak / 1024 / 1024, cpuSeconds, cpuByRole };
  } finally {
    clearInterval(timer);
  }
}

function runBare(code: string, args: string[]): Promise<{ ms: number; frames: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code, ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code === 0) resolve(JSON.parse(line));
      else reject(new Error(`bare render exited ${code}: ${out.slice(-500)}`));
    });
  });
}

type Job = { engine: EngineId; seconds: number; width: number; height: number };
const sourceOf = (j: Job) =>
  (j.engine === 'hyperframes' ? hyperframesSource : lottieSource)(j.seconds, j.width, j.height);

function bareHyperframes(j: Job, source: string, outputPath: string, tools: RenderTools) {
  const projectDir = fs.mkdtempSync(path.join(work, 'hf-project-'));
  const prepared = prepareComposition(source, { width: j.width, height: j.height });
  fs.mkdirSync(path.join(projectDir, VENDOR_DIR));
  fs.writeFileSync(path.join(projectDir, 'index.html'), prepared.html);
  for (const f of prepared.vendorFiles) fs.copyFileSync(f.from, path.join(projectDir, VENDOR_DIR, f.file));
  // Our path's producer options, as data (undefined ones, left out, are the producer's defaults either way).
  const hf = hyperframesSettings(tools);
  const options = producerRenderConfig({ fps: FPS, chromePath: hf.chromePath, crf: tools.crf, settings: hf });
  return runBare(BARE_HYPERFRAMES, [projectDir, outputPath, JSON.stringify(options)]);
}

function bareLottie(j: Job, source: string, outputPath: string, tools: RenderTools) {
  const anim = JSON.parse(source) as LottieAnimation;
  const frames = outputFrames(anim, FPS);
  const sourceFile = path.join(work, `lottie-${Date.now()}.json`);
  // Text as our render draws it (outlines of the shaped text), so ThorVG alone draws the same picture.
  outlineText(anim);
  fs.writeFileSync(sourceFile, JSON.stringify(anim));
  const args = encoderArgs({
    width: j.width,
    height: j.height,
    fps: FPS,
    frames,
    outputPath,
    crf: tools.crf,
    preset: lottieSettings(tools).x264Preset,
  });
  const wasm = path.join(root, 'node_modules/@lottiefiles/dotlottie-web/dist/dotlottie-player.wasm');
  return runBare(BARE_LOTTIE, [
    sourceFile,
    String(j.width),
    String(j.height),
    String(FPS),
    String(frames),
    config.render.ffmpegPath,
    JSON.stringify(args),
    wasm,
  ]);
}

type Row = Job & {
  path: string;
  wallS: number;
  frames: number;
  cpuS: number;
  cpuByRole: Record<string, number>;
  peakRssMb: number;
  outputPath: string;
};

async function measure(j: Job, which: 'ours' | 'bare', tools: RenderTools, label: string = which): Promise<Row> {
  // Let the previous run's leftovers settle (its spare render process starts 200 ms after it ends).
  await new Promise((r) => setTimeout(r, 1500));
  const source = sourceOf(j);
  const outputPath = path.join(work, `${j.engine}-${j.seconds}-${j.width}x${j.height}-${label}-${Date.now()}.mp4`);
  const started = performance.now();
  const { value, peakRssMb, cpuSeconds, cpuByRole } = await withTreeUsage(async () => {
    if (which === 'bare')
      return j.engine === 'hyperframes'
        ? bareHyperframes(j, source, outputPath, tools)
        : bareLottie(j, source, outputPath, tools);
    const result = await getEngine(j.engine).render(source, {
      width: j.width,
      height: j.height,
      fps: FPS,
      outputPath,
      tools,
    });
    return { ms: performance.now() - started, frames: result.frames };
  });
  return {
    ...j,
    path: label,
    wallS: value.ms / 1000,
    frames: value.frames,
    cpuS: cpuSeconds,
    cpuByRole,
    peakRssMb,
    outputPath,
  };
}

/** Mean SSIM over the frames and the worst frame's, of `video` against `reference`. */
async function ssim(video: string, reference: string): Promise<{ mean: number; worst: number }> {
  const frames = await frameSsim(config.render.ffmpegPath, video, reference);
  return { mean: frames.reduce((a, b) => a + b, 0) / frames.length, worst: Math.min(...frames) };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const load = () => os.loadavg()[0]!.toFixed(2);
const pct = (a: number, b: number) => `${a >= b ? '+' : ''}${((a / b - 1) * 100).toFixed(1)}%`;
const jobs = () =>
  ENGINES.flatMap((engine) =>
    SIZES.flatMap(([width, height]) => DURATIONS.map((seconds) => ({ engine, seconds, width, height }))),
  );
const describe = (j: Job) => `${j.engine} ${j.width}x${j.height} ${j.seconds} s`;

/** Our path vs the bare library, alternating (issue 3). */
async function compareWithBare() {
  const rows: Row[] = [];
  for (const j of jobs()) {
    for (let i = 0; i < reps; i++) {
      // Alternate the order so neither path always runs on a warmer machine.
      const order = i % 2 === 0 ? (['ours', 'bare'] as const) : (['bare', 'ours'] as const);
      for (const which of order) rows.push(await measure(j, which, configTools));
    }
  }
  console.log(`\nload average (1 min) at the end: ${load()}`);
  console.log('video                            path  wall s  frames/s  CPU s  peak RSS MB');
  for (const j of jobs()) {
    const pick = (which: string) => rows.filter((r) => describe(r) === describe(j) && r.path === which);
    const wallRuns = (which: string) =>
      pick(which)
        .map((r) => r.wallS.toFixed(2))
        .join(', ');
    const summary = (which: string) => {
      const rs = pick(which);
      const wall = median(rs.map((r) => r.wallS));
      return {
        wall,
        fps: rs[0]!.frames / wall,
        cpu: median(rs.map((r) => r.cpuS)),
        rss: Math.max(...rs.map((r) => r.peakRssMb)),
      };
    };
    const ours = summary('ours');
    const bare = summary('bare');
    for (const [name, s] of [
      ['ours', ours],
      ['bare', bare],
    ] as const) {
      console.log(
        `${describe(j).padEnd(32)} ${name.padEnd(5)} ${s.wall.toFixed(2).padStart(6)}  ` +
          `${s.fps.toFixed(1).padStart(8)}  ${s.cpu.toFixed(1).padStart(5)}  ${s.rss.toFixed(0).padStart(11)}`,
      );
    }
    console.log(
      `${''.padEnd(33)}ours vs bare: wall ${pct(ours.wall, bare.wall)}, CPU ${pct(ours.cpu, bare.cpu)}  ` +
        `(wall runs: ours ${wallRuns('ours')}; bare ${wallRuns('bare')})`,
    );
  }
}

/** Encoding settings side by side on our path, each scored against a near-lossless reference (issue 18). */
async function compareSettings() {
  const candidates: Array<[string, RenderTools]> = [
    ['before', BEFORE],
    ['after', configTools],
  ];
  for (const spec of args.candidates.split(';').filter(Boolean)) {
    const [name, vars = ''] = spec.split(':');
    candidates.push([
      name!,
      settings(
        Object.fromEntries(
          vars
            .split(',')
            .filter(Boolean)
            .map((kv) => kv.split('=') as [string, string]),
        ),
      ),
    ]);
  }
  for (const [name, s] of candidates) console.log(`${name}: ${describeSettings(s)}`);
  for (const j of jobs()) {
    const reference = await measure(j, 'ours', REFERENCE, 'reference');
    const rows: Row[] = [];
    for (let i = 0; i < reps; i++) {
      // Rotate the order so no candidate always runs on a warmer machine.
      for (let k = 0; k < candidates.length; k++) {
        const [name, s] = candidates[(i + k) % candidates.length]!;
        rows.push(await measure(j, 'ours', s, name));
      }
    }
    const videoSeconds = rows[0]!.frames / FPS;
    console.log(
      `\n${describe(j)} (${rows[0]!.frames} frames), ${reps} run(s) each, load average ${load()}; ` +
        `CPU s per video-second (without ${DEV_ONLY}):`,
    );
    const roles = [...new Set(rows.flatMap((r) => Object.keys(r.cpuByRole)))].sort();
    console.log(
      `${'settings'.padEnd(12)} ${'wall s'.padStart(7)} ${'frames/s'.padStart(8)} ${'CPU s/vs'.padStart(8)} ` +
        `${'SSIM'.padStart(6)} ${'worst'.padStart(6)} ${'KB'.padStart(6)}  by process (median CPU s per video-second)`,
    );
    for (const [name] of candidates) {
      const rs = rows.filter((r) => r.path === name);
      const wall = median(rs.map((r) => r.wallS));
      const score = await ssim(rs.at(-1)!.outputPath, reference.outputPath);
      const kb = fs.statSync(rs.at(-1)!.outputPath).size / 1024;
      const byRole = roles
        .map((role) => [role, median(rs.map((r) => r.cpuByRole[role] ?? 0)) / videoSeconds] as const)
        .filter(([, v]) => v >= 0.05)
        .map(([role, v]) => `${role} ${v.toFixed(2)}`)
        .join(', ');
      const cpuPerVs = median(rs.map((r) => r.cpuS - (r.cpuByRole[DEV_ONLY] ?? 0))) / videoSeconds;
      console.log(
        `${name.padEnd(12)} ${wall.toFixed(2).padStart(7)} ${(rs[0]!.frames / wall).toFixed(1).padStart(8)} ` +
          `${cpuPerVs.toFixed(2).padStart(8)} ${score.mean.toFixed(4).padStart(6)} ` +
          `${score.worst.toFixed(3).padStart(6)} ${kb.toFixed(0).padStart(6)}  ${byRole}`,
      );
      console.log(
        `${''.padEnd(12)} CPU s runs: ${rs.map((r) => r.cpuS.toFixed(1)).join(', ')}; ` +
          `wall s runs: ${rs.map((r) => r.wallS.toFixed(2)).join(', ')}`,
      );
    }
  }
}

/** One video in one piece, then chunked here and joined; chunk costs alone; the capacity model (issue 18). */
async function compareChunks() {
  const policy = config.renderChunks;
  for (const j of jobs()) {
    const engine = getEngine(j.engine);
    const source = sourceOf(j);
    const timing = engine.timing?.(source);
    if (!timing) throw new Error(`${describe(j)}: the engine cannot tell the frames from the source`);
    const tools: RenderTools = configTools;
    const renderChunk = (chunk: RenderChunk, label: string) =>
      engine.render(source, {
        width: j.width,
        height: j.height,
        fps: FPS,
        outputPath: path.join(work, `${label}-${chunk.index}-${Date.now()}.mp4`),
        tools,
        chunk,
      });
    console.log(`\n${describe(j)} (${timing.frames} frames), ${reps} run(s) each, load average ${load()}`);
    for (let i = 0; i < reps; i++) {
      const whole = await measure(j, 'ours', configTools, 'one piece');
      await new Promise((r) => setTimeout(r, 1500));
      const chunks = splitFrames(timing.frames, Number(args.chunks));
      const joined = path.join(work, `joined-${Date.now()}.mp4`);
      let joinS = 0;
      const started = performance.now();
      const usage = await withTreeUsage(async () => {
        const files = (await Promise.all(chunks.map((c) => renderChunk(c, 'here')))).map((r) => r.path);
        const joinStarted = performance.now();
        await joinChunkFiles(config.render.ffmpegPath, files, joined);
        joinS = (performance.now() - joinStarted) / 1000;
      });
      const wallS = (performance.now() - started) / 1000;
      const probed = await probeVideo(config.render.ffmpegPath, joined, { countPackets: true });
      const ssimByFrame = await frameSsim(config.render.ffmpegPath, joined, whole.outputPath);
      const boundaries = chunks
        .slice(1)
        .flatMap((c) => [c.start - 1, c.start])
        .map((n) => ssimByFrame[n]!);
      console.log(`one piece:              wall ${whole.wallS.toFixed(1)} s, CPU ${whole.cpuS.toFixed(1)} s`);
      console.log(
        `${chunks.length} chunks at once here: wall ${wallS.toFixed(1)} s (join ${joinS.toFixed(2)} s), ` +
          `CPU ${usage.cpuSeconds.toFixed(1)} s; ${probed.frames} frames, ${probed.durationSeconds.toFixed(3)} s; ` +
          `SSIM vs one piece: boundary frames min ${Math.min(...boundaries).toFixed(4)}, ` +
          `all frames min ${Math.min(...ssimByFrame).toFixed(4)}`,
      );
    }
    // Chunks alone, as one per dedicated render worker: the fit takes a short chunk and the 4-worker
    // length; the 2-worker length is left out to check the prediction.
    const lengthFor = (workers: number) => splitFrames(timing.frames, workers)[0]!.end;
    const fitLengths = [FPS, lengthFor(4)];
    const checkLength = lengthFor(2);
    const alone = new Map<number, number[]>();
    for (let i = 0; i < reps; i++) {
      for (const frames of [...fitLengths, checkLength]) {
        await new Promise((r) => setTimeout(r, 1500));
        const chunk: RenderChunk = {
          index: 0,
          count: Math.ceil(timing.frames / frames),
          start: 0,
          end: frames,
          size: frames,
          total: timing.frames,
        };
        const t = performance.now();
        await renderChunk(chunk, 'alone');
        alone.set(frames, [...(alone.get(frames) ?? []), (performance.now() - t) / 1000]);
      }
    }
    const [k1, k2] = fitLengths as [number, number];
    const [w1, w2] = [median(alone.get(k1)!), median(alone.get(k2)!)];
    const perFrame = (w2 - w1) / (k2 - k1);
    const fixed = w1 - perFrame * k1;
    const chunkWall = (frames: number) => fixed + perFrame * frames;
    console.log(
      `chunk alone (median of ${reps}): ` +
        [...alone].map(([k, ws]) => `${k} frames ${median(ws).toFixed(1)} s`).join(', '),
    );
    console.log(`model: chunk wall = ${fixed.toFixed(1)} s + ${(perFrame * FPS).toFixed(2)} s per video-second`);
    console.log(
      `check: ${checkLength} frames alone predicted ${chunkWall(checkLength).toFixed(1)} s, ` +
        `measured ${median(alone.get(checkLength)!).toFixed(1)} s ` +
        `(${pct(chunkWall(checkLength), median(alone.get(checkLength)!))})`,
    );
    for (const workers of [1, 2, 4, 16]) {
      const planned = planChunks(timing, policy, workers);
      const longest = planned.length ? planned[0]!.end - planned[0]!.start : timing.frames;
      const unbounded = splitFrames(timing.frames, workers)[0]!.end;
      console.log(
        `${String(workers).padStart(2)} render workers: ${Math.max(1, planned.length)} ` +
          `chunk(s) of ≤ ${longest} frames → ${chunkWall(longest).toFixed(1)} s + join` +
          (unbounded !== longest
            ? ` (without the ${policy.minChunkSeconds} s shortest chunk: ` +
              `${workers} chunks, ${chunkWall(unbounded).toFixed(1)} s + join)`
            : ''),
      );
    }
  }
}

/** The embedded composer's compositions, this checkout's against `--before`'s, per video-second (issue 30). */
async function compareComposers() {
  if (!args.before) throw new Error('--mode composer needs --before <checkout of the previous composer>');
  const previous = (await import(path.resolve(args.before, 'src/engines/index.ts'))) as { getEngine: typeof getEngine };
  const prompts = await corpusPrompts();
  const [width, height] = SIZES[0]!;
  const rows: Array<{ engine: string; id: string; which: string; seconds: number; wallS: number; cpuS: number }> = [];
  for (const engine of ENGINES) {
    for (const p of prompts) {
      // The same length from both composers: only what the composition draws differs.
      const spec = {
        prompt: p.prompt,
        instructions: null,
        durationSeconds: Number(args.durations.split(',')[0]),
        assets: [],
        width,
        height,
      };
      const sources = {
        after: getEngine(engine).composeOffline(spec),
        before: previous.getEngine(engine).composeOffline(spec),
      };
      for (let i = 0; i < reps; i++) {
        for (const which of (i % 2 === 0
          ? ['after', 'before', 'before', 'after']
          : ['before', 'after', 'after', 'before']) as Array<'after' | 'before'>) {
          await new Promise((r) => setTimeout(r, 1500));
          const outputPath = path.join(work, `${engine}-${p.id}-${which}-${Date.now()}.mp4`);
          const started = performance.now();
          const { value, cpuSeconds } = await withTreeUsage(() =>
            getEngine(engine).render(sources[which], { width, height, fps: FPS, outputPath, tools: configTools }),
          );
          rows.push({
            engine,
            id: p.id,
            which,
            seconds: value.durationSeconds,
            wallS: (performance.now() - started) / 1000,
            cpuS: cpuSeconds,
          });
          console.log(
            `${engine} ${p.id} ${which}: ${value.durationSeconds.toFixed(1)} s video, ` +
              `${rows.at(-1)!.wallS.toFixed(1)} s wall, ${cpuSeconds.toFixed(1)} CPU s (load ${load()})`,
          );
        }
      }
    }
  }
  console.log(`\nload average (1 min) at the end: ${load()}`);
  console.log('| engine | composer | video s | CPU s per video s | wall s per video s |');
  console.log('|---|---|---|---|---|');
  for (const engine of ENGINES) {
    for (const which of ['before', 'after']) {
      const rs = rows.filter((r) => r.engine === engine && r.which === which);
      const video = rs.reduce((a, r) => a + r.seconds, 0);
      console.log(
        `| ${engine} | ${which} | ${video.toFixed(1)} | ${(rs.reduce((a, r) => a + r.cpuS, 0) / video).toFixed(2)} ` +
          `| ${(rs.reduce((a, r) => a + r.wallS, 0) / video).toFixed(2)} |`,
      );
    }
  }
}

/** Spare render processes of other checkouts' engines, closed at the end. */
const closers: Array<() => Promise<void>> = [];

/**
 * Corpus prompts by id (test/storyboard/corpus/); `bench`, in `--mode engines`, is this benchmark's own composition.
 */
async function corpusPrompts() {
  const { loadCorpus } = await import('../test/storyboard/corpus.js');
  const corpus = [...loadCorpus('tuning'), { id: 'bench', lang: 'en', prompt: '' }];
  return args.prompts.split(',').map(
    (id) =>
      corpus.find((p) => p.id === id) ??
      (() => {
        throw new Error(`no corpus prompt ${id}`);
      })(),
  );
}

/** `--before`'s engines against this checkout's on the composer's compositions (issue 34). */
async function compareEngines() {
  if (!args.before)
    throw new Error('--mode engines needs --before <checkout of the previous engines> or --before skip-off');
  // `skip-off`: this checkout's engines with held-frame skipping off are the `before`.
  const skipOff = args.before === 'skip-off';
  const previous = skipOff
    ? { getEngine }
    : ((await import(path.resolve(args.before, 'src/engines/index.ts'))) as { getEngine: typeof getEngine });
  // Its own spare render processes, closed at the end as ours are.
  if (!skipOff)
    closers.push(
      (
        (await import(path.resolve(args.before, 'src/engines/isolation/renderProcess.ts'))) as {
          closeRenderProcesses: () => Promise<void>;
        }
      ).closeRenderProcesses,
    );
  const beforeTools: RenderTools = skipOff
    ? {
        ...configTools,
        engineSettings: (e) =>
          e.id === 'lottie'
            ? { ...(configTools.engineSettings(e) as LottieSettings), skipHeldFrames: false }
            : configTools.engineSettings(e),
      }
    : configTools;
  const prompts = await corpusPrompts();
  type EngineRow = {
    engine: string;
    size: string;
    id: string;
    which: 'before' | 'after';
    frames: number;
    seconds: number;
    wallS: number;
    cpuS: number;
    skipped: number;
    outputPath: string;
  };
  const rows: EngineRow[] = [];
  const scores: Array<{
    engine: string;
    size: string;
    id: string;
    mean: number;
    worst: number;
    sameFrames: boolean;
    sameDuration: boolean;
  }> = [];
  for (const engine of ENGINES) {
    for (const [width, height] of SIZES) {
      const size = `${width}x${height}`;
      for (const [n, p] of prompts.entries()) {
        const spec = {
          prompt: p.prompt,
          instructions: p.instructions ?? null,
          durationSeconds: args.length === 'natural' ? null : Number(args.length),
          assets: [],
          width,
          height,
        };
        const source =
          p.id === 'bench'
            ? sourceOf({ engine, seconds: spec.durationSeconds ?? 3, width, height })
            : getEngine(engine).composeOffline(spec);
        for (let i = 0; i < reps; i++) {
          // Alternate which goes first, so neither always runs on a warmer (or busier) machine.
          const order: Array<'before' | 'after'> = (n + i) % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
          for (const which of order) {
            await new Promise((r) => setTimeout(r, 1500));
            const outputPath = path.join(work, `${engine}-${size}-${p.id}-${which}-${Date.now()}.mp4`);
            const started = performance.now();
            const render = (which === 'after' ? getEngine : previous.getEngine)(engine).render;
            const tools = which === 'after' ? configTools : beforeTools;
            const { value, cpuSeconds, cpuByRole } = await withTreeUsage(() =>
              render(source, { width, height, fps: FPS, outputPath, tools }),
            );
            const cpuS = cpuSeconds - (cpuByRole[DEV_ONLY] ?? 0);
            const skipped = (value as { framesSkipped?: number }).framesSkipped ?? 0;
            rows.push({
              engine,
              size,
              id: p.id,
              which,
              frames: value.frames,
              seconds: value.durationSeconds,
              wallS: (performance.now() - started) / 1000,
              cpuS,
              skipped,
              outputPath,
            });
            console.log(
              `${engine} ${size} ${p.id} ${which}: ${value.frames} frames ${value.durationSeconds.toFixed(3)} s, ` +
                `${rows.at(-1)!.wallS.toFixed(1)} s wall, ${cpuS.toFixed(1)} CPU s, ${skipped} skipped ` +
                `(load ${load()})`,
            );
          }
        }
        const last = (which: string) =>
          rows.filter((r) => r.engine === engine && r.size === size && r.id === p.id && r.which === which).at(-1)!;
        const [before, after] = [last('before'), last('after')];
        const score = await ssim(after.outputPath, before.outputPath);
        scores.push({
          engine,
          size,
          id: p.id,
          ...score,
          sameFrames: before.frames === after.frames,
          sameDuration: Math.abs(before.seconds - after.seconds) < 1e-3,
        });
        console.log(
          `  SSIM after vs before: mean ${score.mean.toFixed(4)}, worst ${score.worst.toFixed(4)}; ` +
            `frames ${before.frames}/${after.frames}, ` +
            `duration ${before.seconds.toFixed(3)}/${after.seconds.toFixed(3)} s`,
        );
      }
    }
  }
  console.log(`\nload average (1 min) at the end: ${load()}`);
  console.log(
    '| engine | canvas | prompt | video s | CPU s/vs before → after | wall s/vs before → after | frames skipped | ' +
      'SSIM mean / worst | frames, duration equal |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  const perVs = (rs: EngineRow[], key: 'cpuS' | 'wallS') =>
    rs.reduce((a, r) => a + r[key], 0) / rs.reduce((a, r) => a + r.seconds, 0);
  for (const s of scores) {
    const rs = (which: string) =>
      rows.filter((r) => r.engine === s.engine && r.size === s.size && r.id === s.id && r.which === which);
    const after = rs('after');
    const skipped = after.reduce((a, r) => a + r.skipped, 0) / after.reduce((a, r) => a + r.frames, 0);
    console.log(
      `| ${s.engine} | ${s.size} | ${s.id} | ${after[0]!.seconds.toFixed(1)} ` +
        `| ${perVs(rs('before'), 'cpuS').toFixed(2)} → ${perVs(after, 'cpuS').toFixed(2)} ` +
        `| ${perVs(rs('before'), 'wallS').toFixed(2)} → ${perVs(after, 'wallS').toFixed(2)} ` +
        `| ${(skipped * 100).toFixed(0)} % | ${s.mean.toFixed(4)} / ${s.worst.toFixed(4)} ` +
        `| ${s.sameFrames && s.sameDuration ? 'yes' : 'NO'} |`,
    );
  }
  for (const engine of ENGINES) {
    for (const [width, height] of SIZES) {
      const size = `${width}x${height}`;
      const rs = (which: string) => rows.filter((r) => r.engine === engine && r.size === size && r.which === which);
      const ss = scores.filter((s) => s.engine === engine && s.size === size);
      const after = rs('after');
      const skipped = after.reduce((a, r) => a + r.skipped, 0) / after.reduce((a, r) => a + r.frames, 0);
      console.log(
        `| **${engine}** | ${size} | all ${ss.length} | ${after.reduce((a, r) => a + r.seconds, 0).toFixed(1)} ` +
          `| **${perVs(rs('before'), 'cpuS').toFixed(2)} → ${perVs(after, 'cpuS').toFixed(2)}** ` +
          `| ${perVs(rs('before'), 'wallS').toFixed(2)} → ${perVs(after, 'wallS').toFixed(2)} ` +
          `| ${(skipped * 100).toFixed(0)} % ` +
          `| ${(ss.reduce((a, s) => a + s.mean, 0) / ss.length).toFixed(4)} ` +
          `/ ${Math.min(...ss.map((s) => s.worst)).toFixed(4)} ` +
          `| ${ss.every((s) => s.sameFrames && s.sameDuration) ? 'yes' : 'NO'} |`,
      );
    }
  }
}

async function main() {
  console.log(
    `render benchmark (${args.mode}): ${args.sizes} @ ${FPS} fps, ${reps} run(s) each, ` +
      `${os.cpus().length} CPUs, node ${process.version}, load average ${load()}`,
  );
  // Warm-up: first Chrome launch, first WASM compile, OS file cache.
  for (const engine of ENGINES)
    await measure({ engine, seconds: 1, width: SIZES[0]![0], height: SIZES[0]![1] }, 'ours', configTools, 'warm-up');
  if (args.mode === 'settings') await compareSettings();
  else if (args.mode === 'chunks') await compareChunks();
  else if (args.mode === 'composer') await compareComposers();
  else if (args.mode === 'engines') await compareEngines();
  else await compareWithBare();
}

try {
  await main();
} finally {
  await closeRenderProcesses();
  for (const close of closers) await close();
  fs.rmSync(work, { recursive: true, force: true });
}
