// Render benchmark (issue 3): our engine path vs the bare engine on the same source, side by side.
//   npx tsx bench/render.ts [--reps N] [--engines hyperframes,lottie] [--durations 3,6]
// For each engine, 1080x1920 at 30 fps, 3 s and 6 s: wall time, frames per second and peak RSS of the
// render's process tree (sum over the render process, Chrome and ffmpeg, sampled every 100 ms), and the
// CPU seconds that tree used (a figure other load on the machine does not distort).
// - ours: getEngine(id).render(): validation, an isolated render process (the warm spare the previous
//   render left, as in a worker rendering one job after another), ffprobe of the result.
// - bare: the library alone in a plain Node process — @hyperframes/producer's executeRenderJob on the
//   prepared project, or dotlottie-web frames piped into ffmpeg with the same encoder arguments. Its
//   time covers the render call only (its process is already started and its modules loaded), so
//   the comparison charges our path with everything it adds, process start included.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { getEngine } from '../src/engines/index.js';
import { prepareComposition } from '../src/engines/hyperframes/prepare.js';
import { VENDOR_DIR } from '../src/engines/hyperframes/vendor.js';
import { listProcesses } from '../src/engines/isolation/processTree.js';
import { closeRenderProcesses } from '../src/engines/isolation/renderProcess.js';
import { encoderArgs } from '../src/engines/lottie/encoder.js';
import { fontsFor } from '../src/engines/lottie/fonts.js';
import type { LottieAnimation } from '../src/engines/lottie/validate.js';
import type { EngineId } from '../src/shared.js';

const WIDTH = 1080;
const HEIGHT = 1920;
const FPS = 30;
const { values: args } = parseArgs({
  options: { reps: { type: 'string', default: '2' }, engines: { type: 'string', default: 'hyperframes,lottie' }, durations: { type: 'string', default: '3,6' } },
});
const reps = Number(args.reps);
const ENGINES = args.engines.split(',') as EngineId[];
const DURATIONS = args.durations.split(',').map(Number);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const config = loadConfig();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-render-'));

// ---------- compositions ----------

function hyperframesSource(seconds: number): string {
  const cards = Array.from({ length: 6 }, (_, i) => `<div class="card" id="c${i}">Scene ${i + 1}</div>`).join('\n');
  return `<!doctype html><html><head><meta charset="UTF-8">
<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"></script>
<style>
  * { margin: 0; box-sizing: border-box; }
  html, body { width: ${WIDTH}px; height: ${HEIGHT}px; overflow: hidden; background: linear-gradient(160deg, #0b1020, #3a1c71); }
  .card { position: absolute; left: 90px; width: 900px; height: 220px; border-radius: 32px; background: rgba(255,255,255,0.12);
          color: #fff; font: 700 96px Inter, sans-serif; display: flex; align-items: center; justify-content: center; }
  #c0 { top: 100px } #c1 { top: 400px } #c2 { top: 700px } #c3 { top: 1000px } #c4 { top: 1300px } #c5 { top: 1600px }
  #orb { position: absolute; width: 300px; height: 300px; border-radius: 50%; left: 390px; top: 810px; background: radial-gradient(#ffd452, #ff4e50); }
</style></head><body>
<div id="root" data-composition-id="bench" data-start="0" data-width="${WIDTH}" data-height="${HEIGHT}">
${cards}
<div id="orb"></div>
</div>
<script>
  const tl = gsap.timeline({ paused: true });
  tl.from('.card', { x: -1100, opacity: 0, duration: 0.8, stagger: 0.15, ease: 'power3.out' }, 0);
  tl.to('#orb', { rotation: 720, scale: 1.6, duration: ${seconds}, ease: 'none' }, 0);
  tl.to('.card', { y: '+=60', duration: ${seconds} - 1, yoyo: true, repeat: 1, ease: 'sine.inOut' }, 1);
  window.__timelines = window.__timelines || {};
  window.__timelines['bench'] = tl;
</script></body></html>`;
}

function lottieSource(seconds: number): string {
  const frames = seconds * FPS;
  const ks = (p: unknown, r: unknown = { a: 0, k: 0 }) => ({ o: { a: 0, k: 100 }, r, p, a: { a: 0, k: [0, 0, 0] }, s: { a: 0, k: [100, 100, 100] } });
  const ease = { i: { x: 0.4, y: 1 }, o: { x: 0.6, y: 0 } };
  const moving = (from: number[], to: number[]) => ({ a: 1, k: [{ t: 0, s: from, ...ease }, { t: frames - 1, s: to }] });
  const turning = (degrees: number) => ({ a: 1, k: [{ t: 0, s: [0], ...ease }, { t: frames - 1, s: [degrees] }] });
  const shape = (ind: number, kind: 'rc' | 'el', colour: number[], p: unknown, r?: unknown) => ({
    ty: 4, ind, nm: `shape${ind}`, ip: 0, op: frames, st: 0, ks: ks(p, r),
    shapes: [{ ty: 'gr', it: [
      kind === 'rc' ? { ty: 'rc', d: 1, s: { a: 0, k: [360, 360] }, p: { a: 0, k: [0, 0] }, r: { a: 0, k: 48 } } : { ty: 'el', d: 1, s: { a: 0, k: [420, 420] }, p: { a: 0, k: [0, 0] } },
      { ty: 'fl', c: { a: 0, k: colour }, o: { a: 0, k: 100 }, r: 1 },
      { ty: 'tr', p: { a: 0, k: [0, 0] }, a: { a: 0, k: [0, 0] }, s: { a: 0, k: [100, 100] }, r: { a: 0, k: 0 }, o: { a: 0, k: 100 } },
    ] }],
  });
  const anim = {
    v: '5.7.4', fr: FPS, ip: 0, op: frames, w: WIDTH, h: HEIGHT, nm: 'bench', assets: [],
    fonts: { list: [{ fName: 'Inter-Bold', fFamily: 'Inter', fStyle: 'Bold', ascent: 75 }] },
    layers: [
      { ty: 5, ind: 1, nm: 'title', ip: 0, op: frames, st: 0, ks: ks(moving([120, 300, 0], [120, 1700, 0])),
        t: { d: { k: [{ t: 0, s: { s: 120, f: 'Inter-Bold', t: 'Benchmark', j: 0, tr: 0, lh: 140, ls: 0, fc: [0.1, 0.1, 0.3] } }] }, p: {}, m: { g: 1, a: { a: 0, k: [0, 0] } }, a: [] } },
      shape(2, 'rc', [0.9, 0.2, 0.3, 1], moving([240, 400, 0], [840, 1500, 0]), turning(720)),
      shape(3, 'el', [0.2, 0.5, 0.95, 1], moving([840, 1500, 0], [240, 400, 0])),
      shape(4, 'rc', [0.98, 0.8, 0.2, 1], moving([540, 200, 0], [540, 1700, 0]), turning(-360)),
    ],
  };
  return JSON.stringify(anim);
}

// ---------- bare engines (plain Node, no TypeScript) ----------

const BARE_HYPERFRAMES = `
import { createRenderJob, executeRenderJob, resolveConfig } from '@hyperframes/producer';
const [projectDir, out, chromePath, fps] = process.argv.slice(1);
const quiet = { error() {}, warn() {}, info() {}, debug() {} };
const started = performance.now();
const job = createRenderJob({ fps: Number(fps), quality: 'standard', format: 'mp4', hdrMode: 'force-sdr',
  producerConfig: resolveConfig({ chromePath, forceScreenshot: false }), logger: quiet });
await executeRenderJob(job, projectDir, out);
console.log(JSON.stringify({ ms: performance.now() - started, frames: job.totalFrames }));
process.exit(0);
`;

const BARE_LOTTIE = `
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import { DotLottie } from '@lottiefiles/dotlottie-web';
const [sourceFile, width, height, fps, frames, ffmpeg, argsJson, fontsJson, wasmPath] = process.argv.slice(1);
const wasm = fs.readFileSync(wasmPath);
globalThis.fetch = async () => new Response(wasm, { headers: { 'content-type': 'application/wasm' } });
DotLottie.setWasmUrl('http://local.invalid/dotlottie-player.wasm');
const json = fs.readFileSync(sourceFile, 'utf8');
const started = performance.now();
for (const [name, file] of JSON.parse(fontsJson)) await DotLottie.registerFont(name, fs.readFileSync(file));
const player = new DotLottie({ canvas: { width: Number(width), height: Number(height) }, data: json, autoplay: false, loop: false, useFrameInterpolation: true, layout: { fit: 'contain', align: [0.5, 0.5] } });
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

type TreeUsage = { peakRssMb: number; cpuSeconds: number };

/**
 * Peak summed RSS and CPU time of this process's descendants (and the process groups they start)
 * while `fn` runs, sampled every 100 ms. CPU time is robust to other load on the machine; a
 * process's last <100 ms and very short-lived processes (ffprobe) are not counted.
 */
async function withTreeUsage<T>(fn: () => Promise<T>): Promise<{ value: T } & TreeUsage> {
  const groups = new Set<number>();
  const cpu = new Map<number, number>();
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
    for (const p of members.values()) cpu.set(p.pid, p.cpuSeconds);
    peak = Math.max(peak, [...members.values()].reduce((sum, p) => sum + p.rssBytes, 0));
  };
  const parentCpuBefore = process.cpuUsage();
  const timer = setInterval(sample, 100);
  try {
    const value = await fn();
    sample();
    // Our path also validates and probes in this process: charge its CPU time too.
    const parent = process.cpuUsage(parentCpuBefore);
    const cpuSeconds = [...cpu.values()].reduce((a, b) => a + b, 0) + (parent.user + parent.system) / 1e6;
    return { value, peakRssMb: peak / 1024 / 1024, cpuSeconds };
  } finally {
    clearInterval(timer);
  }
}

function runBare(code: string, args: string[]): Promise<{ ms: number; frames: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code === 0) resolve(JSON.parse(line));
      else reject(new Error(`bare render exited ${code}: ${out.slice(-500)}`));
    });
  });
}

function bareHyperframes(source: string, outputPath: string) {
  const projectDir = fs.mkdtempSync(path.join(work, 'hf-project-'));
  const prepared = prepareComposition(source, { width: WIDTH, height: HEIGHT });
  fs.mkdirSync(path.join(projectDir, VENDOR_DIR));
  fs.writeFileSync(path.join(projectDir, 'index.html'), prepared.html);
  for (const f of prepared.vendorFiles) fs.copyFileSync(f.from, path.join(projectDir, VENDOR_DIR, f.file));
  return runBare(BARE_HYPERFRAMES, [projectDir, outputPath, config.render.chromePath, String(FPS)]);
}

function bareLottie(source: string, outputPath: string) {
  const anim = JSON.parse(source) as LottieAnimation;
  const frames = Math.round(((anim.op - anim.ip) / anim.fr) * FPS);
  const sourceFile = path.join(work, `lottie-${Date.now()}.json`);
  fs.writeFileSync(sourceFile, source);
  const args = encoderArgs({ width: WIDTH, height: HEIGHT, fps: FPS, frames, outputPath });
  const wasm = path.join(root, 'node_modules/@lottiefiles/dotlottie-web/dist/dotlottie-player.wasm');
  const fonts = JSON.stringify([...fontsFor(anim)]);
  return runBare(BARE_LOTTIE, [sourceFile, String(WIDTH), String(HEIGHT), String(FPS), String(frames), config.render.ffmpegPath, JSON.stringify(args), fonts, wasm]);
}

type Row = { engine: EngineId; seconds: number; path: 'ours' | 'bare'; wallS: number; frames: number; cpuS: number; peakRssMb: number };

async function measure(engine: EngineId, seconds: number, which: 'ours' | 'bare'): Promise<Row> {
  // Let the previous run's leftovers settle (its spare render process starts 200 ms after it ends).
  await new Promise((r) => setTimeout(r, 1500));
  const source = engine === 'hyperframes' ? hyperframesSource(seconds) : lottieSource(seconds);
  const outputPath = path.join(work, `${engine}-${seconds}-${which}-${Date.now()}.mp4`);
  const started = performance.now();
  const { value, peakRssMb, cpuSeconds } = await withTreeUsage(async () => {
    if (which === 'bare') return engine === 'hyperframes' ? bareHyperframes(source, outputPath) : bareLottie(source, outputPath);
    const result = await getEngine(engine).render(source, { width: WIDTH, height: HEIGHT, fps: FPS, outputPath, tools: config.render });
    return { ms: performance.now() - started, frames: result.frames };
  });
  return { engine, seconds, path: which, wallS: value.ms / 1000, frames: value.frames, cpuS: cpuSeconds, peakRssMb };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const load = () => os.loadavg()[0]!.toFixed(2);

async function main() {
  console.log(`render benchmark: ${WIDTH}x${HEIGHT} @ ${FPS} fps, ${reps} run(s) each, ${os.cpus().length} CPUs, node ${process.version}, load average ${load()}`);
  // Warm-up: first Chrome launch, first WASM compile, OS file cache.
  for (const engine of ENGINES) await measure(engine, 1, 'ours');
  const rows: Row[] = [];
  for (const engine of ENGINES) {
    for (const seconds of DURATIONS) {
      for (let i = 0; i < reps; i++) {
        // Alternate the order so neither path always runs on a warmer machine.
        const order = i % 2 === 0 ? (['ours', 'bare'] as const) : (['bare', 'ours'] as const);
        for (const which of order) rows.push(await measure(engine, seconds, which));
      }
    }
  }
  console.log(`\nload average (1 min) at the end: ${load()}`);
  console.log('engine       video  path  wall s  frames/s  CPU s  peak RSS MB');
  for (const engine of ENGINES) {
    for (const seconds of DURATIONS) {
      const pick = (which: 'ours' | 'bare') => rows.filter((r) => r.engine === engine && r.seconds === seconds && r.path === which);
      const summary = (which: 'ours' | 'bare') => {
        const rs = pick(which);
        const wall = median(rs.map((r) => r.wallS));
        return { wall, fps: rs[0]!.frames / wall, cpu: median(rs.map((r) => r.cpuS)), rss: Math.max(...rs.map((r) => r.peakRssMb)) };
      };
      const ours = summary('ours');
      const bare = summary('bare');
      for (const [name, s] of [['ours', ours], ['bare', bare]] as const) {
        console.log(
          `${engine.padEnd(12)} ${`${seconds} s`.padEnd(6)} ${name.padEnd(5)} ${s.wall.toFixed(2).padStart(6)}  ${s.fps.toFixed(1).padStart(8)}  ${s.cpu.toFixed(1).padStart(5)}  ${s.rss.toFixed(0).padStart(11)}`,
        );
      }
      const pct = (a: number, b: number) => `${a >= b ? '+' : ''}${((a / b - 1) * 100).toFixed(1)}%`;
      console.log(
        `${''.padEnd(19)} ours vs bare: wall ${pct(ours.wall, bare.wall)}, CPU ${pct(ours.cpu, bare.cpu)}  (wall runs: ours ${pick('ours').map((r) => r.wallS.toFixed(2)).join(', ')}; bare ${pick('bare').map((r) => r.wallS.toFixed(2)).join(', ')})`,
      );
    }
  }
}

try {
  await main();
} finally {
  await closeRenderProcesses();
  fs.rmSync(work, { recursive: true, force: true });
}
