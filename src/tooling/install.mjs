#!/usr/bin/env node
// Installs what `npm start` and `npm test` need and is missing, then exits. Plain JavaScript with
// no dependencies, because it runs before `npm install` (as the prestart/pretest script).
//   1. npm dependencies (npm install when node_modules is missing or older than package.json or the lock),
//      then the repository's patches to them (patches/, applied by patch-package; see applyDependencyPatches)
//   2. Debian chromium-headless-shell, ffmpeg and the fonts both engines draw text with (DejaVu; Noto for
//      Latin, Cyrillic, Greek, Arabic, Hebrew, Devanagari… ; Noto CJK; Noto Color Emoji) and the embedded
//      voice (Festival with its English, Russian and Italian voices; espeak-ng), when absent and
//      apt is usable; for `npm test` (npm_lifecycle_event=pretest) also tesseract OCR (English, Japanese,
//      Hindi, Bengali, Thai, Hebrew, Arabic, Russian), pocketsphinx (English) and bubblewrap (the render
//      sandbox), and, as root, the unprivileged user renders run as
//   3. the Temporal CLI (dev server) at a pinned version: TEMPORAL_CLI_PATH, else `temporal` on PATH,
//      else built from the Go module proxy into a cache outside the checkout, else downloaded.
//   4. for `npm test` and `npm run cluster`: the Temporal server and its SQL tool, and gofakes3 (an S3
//      server), built from the Go module proxy into the same cache.
//   5. for `npm test`: a container engine and the images of the container test (src/tooling/containers.mjs).
// Steps 1–4 run at the same time, each in a process of its own with its output in
// ~/.cache/video-api/install-logs/<step>.log, behind one progress display; the first that fails stops
// the others and is named (src/tooling/steps.mjs). A second run finds everything in place in about a second.
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSteps } from './steps.mjs';

export const TEMPORAL_CLI_VERSION = '1.5.1';
export const CHROME_HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const say = (msg) => process.stderr.write(`[install] ${msg}\n`);

function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

function run(cmd, args, opts = {}) {
  say(`$ ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
}

export function toolsCacheDir() {
  return path.resolve(process.env.TOOLS_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'video-api'));
}

function ensureNpmDependencies() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  const pkg = path.join(root, 'package.json');
  const newest = Math.max(...[lock, pkg].filter(fs.existsSync).map((f) => fs.statSync(f).mtimeMs));
  if (fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= newest) return;
  const env = { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' };
  // `npm install`, not `npm ci`: it installs the lock file's versions too, but does not refuse a lock
  // that lacks other platforms' optional packages (npm drops them under omit-lockfile-registry-resolved).
  run('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, env });
  fs.utimesSync(marker, new Date(), new Date());
}

/** Where the record of the last patch application is kept (see applyDependencyPatches). */
const PATCHES_APPLIED = path.join('node_modules', '.patches-applied.json');

/**
 * Applies the patches in patches/ to the installed dependencies with patch-package (the diffs, the
 * package versions they are for, and a note for upstream: patches/README.md). Throws naming the patch
 * when one no longer applies (a dependency upgraded, or the file changed), so `npm start` stops rather
 * than run unpatched. A file that has other hard links (a node_modules copied with `cp -al`, as worktrees
 * share one) is first replaced by a copy of its own, so patching it changes no other checkout. Skipped
 * when the patches and the files they touch are as the last application left them: well under a second.
 */
export function applyDependencyPatches(dir = root) {
  const patchDir = path.join(dir, 'patches');
  const patches = fs.existsSync(patchDir)
    ? fs
        .readdirSync(patchDir)
        .filter((f) => f.endsWith('.patch'))
        .sort()
    : [];
  if (patches.length === 0) return;
  const texts = patches.map((f) => fs.readFileSync(path.join(patchDir, f), 'utf8'));
  const targets = [
    ...new Set(texts.flatMap((t) => [...t.matchAll(/^diff --git a\/(\S+) b\//gm)].map((m) => m[1]))),
  ].map((f) => path.join(dir, f));
  const hash = crypto.createHash('sha256').update(texts.join('\0')).digest('hex');
  const stamp = () =>
    JSON.stringify({
      hash,
      files: targets.map((f) => [
        path.relative(dir, f),
        ...(fs.existsSync(f) ? [fs.statSync(f).ino, fs.statSync(f).size] : []),
      ]),
    });
  const record = path.join(dir, PATCHES_APPLIED);
  if (fs.existsSync(record) && fs.readFileSync(record, 'utf8') === stamp()) return;
  for (const file of targets) {
    if (!fs.existsSync(file) || fs.statSync(file).nlink < 2) continue;
    fs.copyFileSync(file, `${file}.unshared`);
    fs.renameSync(`${file}.unshared`, file);
  }
  const r = spawnSync(
    process.execPath,
    [path.join(dir, 'node_modules', 'patch-package', 'index.js'), '--error-on-fail'],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) {
    throw new Error(
      `a patch in patches/ (${patches.join(', ')}) no longer applies:\n${`${r.stdout}\n${r.stderr}`.trim()}`,
    );
  }
  fs.writeFileSync(record, stamp());
  say(`patched dependencies: ${patches.join(', ')}`);
}

/** A file in any tesseract data directory (/usr/share/tesseract-ocr/<version>/tessdata/). */
function hasTessdata(file) {
  const base = '/usr/share/tesseract-ocr';
  try {
    return fs.readdirSync(base).some((v) => fs.existsSync(path.join(base, v, 'tessdata', file)));
  } catch {
    return false;
  }
}

function ensureDebianPackages() {
  const missing = [];
  if (!fs.existsSync(CHROME_HEADLESS_SHELL)) missing.push('chromium-headless-shell');
  if (!which('ffmpeg') || !which('ffprobe')) missing.push('ffmpeg');
  if (!which('bwrap')) missing.push('bubblewrap');
  // Text of both engines is set in these faces (src/text/families.ts): DejaVu Sans Mono, Noto for
  // Latin/Cyrillic/Greek, Arabic, Hebrew, Devanagari and more, Noto CJK, and the emoji pictures.
  const fonts = {
    'fonts-dejavu-core': '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
    'fonts-noto-core': '/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf',
    'fonts-noto-cjk': '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
    'fonts-noto-color-emoji': '/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf',
  };
  for (const [pkg, file] of Object.entries(fonts)) if (!fs.existsSync(file)) missing.push(pkg);
  // The embedded offline voice (src/speech/embedded/voices.ts): Festival's HTS and unit-selection voices
  // where Debian main has one (English, Russian, Italian), espeak-ng for every other planner language.
  const voices = {
    festival: '/usr/bin/text2wave',
    'festvox-us-slt-hts': '/usr/share/festival/voices/us/cmu_us_slt_arctic_hts',
    'festvox-ru': '/usr/share/festival/voices/russian/msu_ru_nsh_clunits',
    'festvox-italp16k': '/usr/share/festival/voices/italian/lp_diphone',
    'espeak-ng': '/usr/bin/espeak-ng',
  };
  for (const [pkg, file] of Object.entries(voices)) if (!fs.existsSync(file)) missing.push(pkg);
  // The test suite reads rendered text back with OCR, in every script it draws.
  if (process.env.npm_lifecycle_event === 'pretest') {
    if (!which('tesseract')) missing.push('tesseract-ocr');
    // The embedded voice's intelligibility test reads English narration back with an offline recogniser.
    if (!which('pocketsphinx_continuous')) missing.push('pocketsphinx');
    if (!fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us')) missing.push('pocketsphinx-en-us');
    // Titles in every script the engines draw: Latin, CJK, Devanagari, Bengali, Thai, Hebrew, Arabic, Cyrillic.
    for (const lang of ['eng', 'jpn', 'hin', 'ben', 'tha', 'heb', 'ara', 'rus'])
      if (!hasTessdata(`${lang}.traineddata`)) missing.push(`tesseract-ocr-${lang}`);
  }
  if (missing.length === 0) return;
  const isRoot = process.getuid?.() === 0;
  if (!which('apt-get') || !isRoot) {
    say(`WARNING: ${missing.join(', ')} missing and apt-get is not usable here; renders will fail until installed.`);
    return;
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env });
}

/** The unprivileged user renders run as when the worker is root (RENDER_USER, src/engines/isolation/sandbox.ts). */
function ensureRenderUser() {
  const user = process.env.RENDER_USER || 'video-render';
  if (process.getuid?.() !== 0 || spawnSync('id', ['-u', user]).status === 0) return;
  if (!which('useradd')) {
    say(
      `WARNING: cannot create the render user "${user}" (no useradd); renders will not start as root until it exists.`,
    );
    return;
  }
  run('useradd', ['--system', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', user]);
}

function cliWorks(bin) {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return r.status === 0;
}

/** Path of a usable Temporal CLI without installing anything, or null. */
export function findTemporalCli() {
  const fromEnv = process.env.TEMPORAL_CLI_PATH;
  if (fromEnv) return fromEnv;
  const cached = path.join(toolsCacheDir(), `temporal-${TEMPORAL_CLI_VERSION}`, 'temporal');
  if (fs.existsSync(cached) && cliWorks(cached)) return cached;
  const onPath = which('temporal');
  if (onPath && cliWorks(onPath)) return onPath;
  return null;
}

async function downloadTemporalCli(dir) {
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch] ?? process.arch;
  const url = `https://temporal.download/cli/archive/v${TEMPORAL_CLI_VERSION}?platform=${process.platform}&arch=${arch}`;
  say(`downloading ${url}`);
  const res = await fetch(url, { signal: AbortSignal.timeout(120_000) });
  if (!res.ok) throw new Error(`download failed: HTTP ${res.status}`);
  const tgz = path.join(dir, 'temporal.tar.gz');
  fs.writeFileSync(tgz, Buffer.from(await res.arrayBuffer()));
  run('tar', ['-xzf', tgz, '-C', dir, 'temporal']);
  fs.rmSync(tgz);
}

export async function ensureTemporalCli() {
  const found = findTemporalCli();
  if (found) return found;
  const dir = path.join(toolsCacheDir(), `temporal-${TEMPORAL_CLI_VERSION}`);
  fs.mkdirSync(dir, { recursive: true });
  const bin = path.join(dir, 'temporal');
  const errors = [];
  if (which('go')) {
    try {
      // v1.5.1 is the newest release that `go install pkg@version` accepts (later go.mod files carry `replace`).
      run('go', ['install', `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}`], {
        env: { ...process.env, GOBIN: dir, CGO_ENABLED: '0' },
      });
    } catch (err) {
      errors.push(`go install: ${err.message}`);
    }
  } else {
    errors.push('go: not on PATH');
  }
  if (!fs.existsSync(bin)) {
    try {
      await downloadTemporalCli(dir);
    } catch (err) {
      errors.push(`download: ${err.message}`);
    }
  }
  if (!fs.existsSync(bin) || !cliWorks(bin)) {
    throw new Error(
      `Could not install the Temporal CLI ${TEMPORAL_CLI_VERSION}:\n  ${errors.join('\n  ')}\n` +
        'Install it yourself and set TEMPORAL_CLI_PATH.',
    );
  }
  return bin;
}

/** The Node LTS the image runs (Dockerfile; its node stand-in, src/tooling/containers.mjs). */
export const NODE_LTS_VERSION = '24.21.0';

/**
 * A Node binary of NODE_LTS_VERSION's major: this process's own when it is that major, else the
 * registry's `node-<platform>-<arch>` package (the official build, shipped on npm) unpacked into the
 * tools cache (as root: /usr/local/lib/video-api).
 */
export function ensureNodeLts() {
  const major = NODE_LTS_VERSION.split('.')[0];
  if (process.versions.node.split('.')[0] === major) return process.execPath;
  // As root, outside /root: renders run it as the unprivileged render user, who cannot enter /root.
  const dir =
    process.getuid?.() === 0
      ? `/usr/local/lib/video-api/node-${NODE_LTS_VERSION}`
      : path.join(toolsCacheDir(), `node-${NODE_LTS_VERSION}`);
  const bin = path.join(dir, 'package', 'bin', 'node');
  if (fs.existsSync(bin)) return bin;
  fs.mkdirSync(dir, { recursive: true });
  run('npm', [
    'pack',
    `node-${process.platform}-${process.arch}@${NODE_LTS_VERSION}`,
    '--pack-destination',
    dir,
    '--silent',
  ]);
  const tgz = fs.readdirSync(dir).find((f) => f.endsWith('.tgz'));
  run('tar', ['-xzf', path.join(dir, tgz), '-C', dir, 'package/bin/node', 'package/LICENSE']);
  fs.rmSync(path.join(dir, tgz));
  return bin;
}

export const TEMPORAL_SERVER_VERSION = '1.29.1';
export const GOFAKES3_VERSION = '1.2.0';

/**
 * Go programs built from the Go module proxy into the tools cache (`go install pkg@version`, once):
 * `{bin: {name: path}}`, or `{reason}` why they cannot be had. `build: false` only looks.
 */
export function goTools({ name, version, packages, build = true }) {
  const dir = path.join(toolsCacheDir(), `${name}-${version}`);
  const bins = Object.fromEntries(packages.map((pkg) => [path.basename(pkg), path.join(dir, path.basename(pkg))]));
  if (Object.values(bins).every((bin) => fs.existsSync(bin))) return { bin: bins };
  if (!build)
    return {
      reason: `${name} ${version} is not built in ${dir}${
        which('go') ? ' (npm test builds it)' : ', and Go is not installed to build it'
      }`,
    };
  if (!which('go')) return { reason: `Go is not installed, so ${name} cannot be built` };
  fs.mkdirSync(dir, { recursive: true });
  try {
    run('go', ['install', ...packages.map((pkg) => `${pkg}@v${version}`)], {
      env: { ...process.env, GOBIN: dir, CGO_ENABLED: '0' },
    });
  } catch (err) {
    return { reason: `go install ${name} failed: ${err.message}` };
  }
  return Object.values(bins).every((bin) => fs.existsSync(bin))
    ? { bin: bins }
    : { reason: `go install ${name} left no binary in ${dir}` };
}

/** The Temporal server and its SQL schema tool (`npm run cluster`, the cluster tests): `bin.server`, `bin.sql`. */
export const temporalServer = (opts = {}) =>
  goTools({
    name: 'temporal-server',
    version: TEMPORAL_SERVER_VERSION,
    packages: ['go.temporal.io/server/cmd/server', 'go.temporal.io/server/cmd/tools/sql'],
    ...opts,
  });

/** An S3-compatible server for the S3 storage tests and `npm run cluster`: `bin.gofakes3`. */
export const gofakes3 = (opts = {}) =>
  goTools({
    name: 'gofakes3',
    version: GOFAKES3_VERSION,
    packages: ['github.com/johannesboyne/gofakes3/cmd/gofakes3'],
    ...opts,
  });

/**
 * For `npm test` only: the container engine, Compose and the images the container test runs
 * (src/tooling/containers.mjs, in a process of its own: it imports this module). When they cannot be
 * had, the test says why.
 */
function ensureContainerTest() {
  const r = spawnSync(process.execPath, [path.join(root, 'src/tooling/containers.mjs')], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) say('WARNING: the container test (test/deploy/compose.test.ts) cannot run here; it will say why');
}

/**
 * The install steps that do not depend on each other, each run as `install.mjs --step <name>` in a process
 * of its own, all at once (src/tooling/steps.mjs): npm dependencies and their patches; Debian packages and
 * the render user; the Temporal CLI (a Go build on a fresh machine); the Node LTS; for `npm test` and
 * `npm run cluster` the Go-built Temporal server and S3 server.
 */
const STEPS = {
  npm: {
    title: 'npm dependencies',
    run: () => {
      ensureNpmDependencies();
      applyDependencyPatches();
    },
  },
  apt: {
    title: 'Debian packages',
    run: () => {
      ensureDebianPackages();
      ensureRenderUser();
    },
  },
  'temporal-cli': { title: `Temporal CLI ${TEMPORAL_CLI_VERSION}`, run: () => ensureTemporalCli() },
  'node-lts': { title: `Node ${NODE_LTS_VERSION}`, run: () => void ensureNodeLts() },
  'go-tools': {
    title: `Temporal server ${TEMPORAL_SERVER_VERSION} and gofakes3 ${GOFAKES3_VERSION}`,
    // The tests that need them say why they are skipped when they cannot be built: never a failure.
    run: () => {
      for (const tool of [gofakes3(), temporalServer()]) if (tool.reason) say(`WARNING: ${tool.reason}`);
    },
  },
};

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain && process.argv[2] === '--step') {
  await STEPS[process.argv[3]].run();
} else if (isMain && process.argv[2] === '--patches') {
  // `npm install`'s postinstall: the patches alone (npm has just installed the rest).
  try {
    applyDependencyPatches();
  } catch (err) {
    say(`FAILED: ${err.message}`);
    process.exit(1);
  }
} else if (isMain) {
  const lifecycle = process.env.npm_lifecycle_event ?? '';
  const names = ['npm', 'apt', 'temporal-cli', 'node-lts'];
  // The tests' S3 server and the production-like cluster (`npm run cluster`): built once when Go is here.
  if (['pretest', 'cluster', 'precluster'].includes(lifecycle)) names.push('go-tools');
  const started = Date.now();
  try {
    await runSteps(
      names.map((name) => ({
        name,
        title: STEPS[name].title,
        command: [process.execPath, fileURLToPath(import.meta.url), '--step', name],
      })),
      { logDir: path.join(toolsCacheDir(), 'install-logs'), say },
    );
    if (lifecycle === 'pretest') ensureContainerTest();
    say(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s (temporal CLI: ${findTemporalCli()})`);
  } catch (err) {
    say(`FAILED: ${err.message}`);
    process.exit(1);
  }
}
