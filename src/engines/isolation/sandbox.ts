// How a render process is contained by the operating system. Compositions are code written by an
// LLM from user prompts, so a render runs as attacker-controlled code:
// - as a dedicated unprivileged user (RENDER_USER) when the worker is root, so Chrome keeps its own
//   sandbox (it refuses to run sandboxed as root);
// - in bubblewrap: new user, PID, IPC, UTS and network namespaces (no network interface but its own
//   loopback: the page network guard becomes a second layer), a read-only view of the system and the
//   code, a private /tmp, and only its work directory writable; DATA_DIR is not visible;
// - in its own control group (cgroup.ts: memory, tasks, CPU time) and with rlimits (file size, CPU
//   time per process) from prlimit;
// - with a minimal environment: never the worker's credentials.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cgroupLayout, cgroupUnavailableReason, createRenderCgroup, type RenderCgroup } from './cgroup.js';

export type RenderSandboxConfig = {
  /**
   * `on`: bubblewrap (required), render user, limits. `off`: a plain child process (development without bubblewrap).
   */
  mode: 'on' | 'off';
  /** The unprivileged user renders run as when the worker is root. */
  user: string;
  memoryBytes: number;
  /** Processes and threads of one render together. */
  maxTasks: number;
  /** Largest file a render may write. */
  maxFileBytes: number;
  /** CPU time of one render, all its processes together. */
  cpuSeconds: number;
  /** Directories a render must never see (DATA_DIR: media, secrets, the embedded database). */
  hiddenDirs: string[];
};

/** What the platform offers, checked once per process. */
type Support = { bwrap: string | null; runAs: { uid: number; gid: number } | null; problems: string[] };

/** Per mode and user: tests switch the sandbox off for a control render. */
const supportCache = new Map<string, Support>();

/**
 * Project root, the nearest directory above this module with a package.json (the checkout, or the
 * image's /app whose dist/ holds the compiled code): the code and node_modules a render loads.
 */
export const PROJECT_ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
})();

function which(cmd: string): string | null {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(':')) {
    const file = path.join(dir, cmd);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

/** The platform's sandbox support for `config`; `problems` lists what is missing (empty: all there). */
export function sandboxSupport(config: RenderSandboxConfig): Support {
  const key = `${config.mode}:${config.user}`;
  const known = supportCache.get(key);
  if (known) return known;
  const problems: string[] = [];
  let bwrap: string | null = null;
  let runAs: Support['runAs'] = null;
  if (config.mode === 'on') {
    bwrap = which('bwrap');
    if (!bwrap)
      problems.push('bubblewrap (bwrap) is not installed: `apt-get install bubblewrap`, or set RENDER_SANDBOX=off');
    if (process.getuid?.() === 0) {
      try {
        const id = (flag: string) =>
          Number(
            execFileSync('id', [flag, config.user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
          );
        runAs = { uid: id('-u'), gid: id('-g') };
      } catch {
        problems.push(
          `the render user "${config.user}" does not exist: ` +
            `create it (\`useradd --system --no-create-home ${config.user}\`, done by src/tooling/install.mjs), ` +
            'or set RENDER_USER',
        );
      }
    }
    if (runAs && (fs.statSync(os.tmpdir()).mode & 0o001) === 0) {
      problems.push(
        `the render user cannot enter the temp directory ${os.tmpdir()} (render work directories go there): ` +
          `make it world-searchable or point TMPDIR elsewhere`,
      );
    }
    if (bwrap && problems.length === 0) {
      const drop = runAs ? ['setpriv', `--reuid=${runAs.uid}`, `--regid=${runAs.gid}`, '--clear-groups'] : [];
      const [command, ...args] = [...drop, bwrap, '--unshare-all', '--ro-bind', '/', '/', '--', '/bin/true'];
      try {
        execFileSync(command!, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
      } catch (err) {
        const detail = String((err as { stderr?: Buffer }).stderr ?? (err as Error).message).trim();
        problems.push(
          `bubblewrap cannot create namespaces here (${detail}); unprivileged user namespaces must be allowed ` +
            `(sysctl kernel.unprivileged_userns_clone=1; in a container, a seccomp profile allowing them)`,
        );
      }
    }
  }
  const support = { bwrap, runAs, problems };
  supportCache.set(key, support);
  return support;
}

/**
 * Why renders would run with less isolation than configured (for the worker's start-up log), or an
 * empty list. Throws when RENDER_SANDBOX=on cannot be honoured at all.
 */
export function checkSandbox(config: RenderSandboxConfig): string[] {
  const s = sandboxSupport(config);
  if (s.problems.length) throw new Error(`RENDER_SANDBOX=on but ${s.problems.join('; ')}`);
  const warnings: string[] = [];
  if (config.mode === 'off')
    warnings.push(
      'RENDER_SANDBOX=off: renders run without namespaces, as the worker user, with Chrome unsandboxed when that ' +
        'user is root',
    );
  if (!cgroupLayout())
    warnings.push(
      `no cgroups (${cgroupUnavailableReason}): renders have no memory or task limit, ` +
        `only rlimits and the CPU-time check`,
    );
  if (config.mode === 'on' && !s.runAs && process.getuid?.() !== 0)
    warnings.push('the worker is not root: renders run as the worker user (inside their namespaces)');
  return warnings;
}

export type SandboxedSpawn = {
  command: string;
  args: string[];
  env: Record<string, string>;
  cgroup: RenderCgroup | null;
  /** The render does not run as root: a browser may keep its own sandbox. */
  unprivileged: boolean;
};

/**
 * The command line and environment that run `program` (argv, program[0] an absolute path) contained
 * as configured, with `workDir` as its only writable directory and `readOnly` paths visible besides
 * the system and the project.
 */
export function sandboxedSpawn(
  config: RenderSandboxConfig,
  name: string,
  program: string[],
  workDir: string,
  readOnly: string[],
  env: Record<string, string>,
): SandboxedSpawn {
  const s = sandboxSupport(config);
  if (s.problems.length) checkSandbox(config); // throws: never a render with less isolation than configured
  const cgroup = createRenderCgroup(name, { memoryBytes: config.memoryBytes, maxTasks: config.maxTasks });
  // Per process: file size, and CPU time as a backstop to the supervisor's whole-render check.
  const limits = ['prlimit', `--fsize=${config.maxFileBytes}`, `--cpu=${config.cpuSeconds}`, '--core=0', '--'];
  const fullEnv: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: workDir,
    LANG: 'C.UTF-8',
    XDG_CACHE_HOME: path.join(workDir, '.cache'),
    ...env,
  };
  if (cgroup) fullEnv.CGROUP_PROCS = cgroup.procsFiles.join(' '); // read and unset by the joining shell
  let inner = [...limits, ...program];
  if (config.mode === 'on' && s.bwrap) inner = [s.bwrap, ...bwrapArgs(config, workDir, readOnly), '--', ...inner];
  const joined = wrap(s.runAs, workDir, inner);
  const runsAsRoot = !s.runAs && process.getuid?.() === 0;
  return {
    command: joined[0]!,
    args: joined.slice(1),
    env: fullEnv,
    cgroup,
    unprivileged: config.mode === 'on' && !runsAsRoot,
  };
}

function bwrapArgs(config: RenderSandboxConfig, workDir: string, readOnly: string[]): string[] {
  const args = [
    '--unshare-all', // user, PID, IPC, UTS, cgroup and network namespaces: only a loopback of its own
    '--die-with-parent',
    '--ro-bind',
    '/usr',
    '/usr',
    '--ro-bind',
    '/etc',
    '/etc',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
  ];
  for (const link of ['bin', 'lib', 'lib64', 'sbin']) {
    const target = safeReadlink(`/${link}`);
    if (target) args.push('--symlink', target, `/${link}`);
    else if (fs.existsSync(`/${link}`)) args.push('--ro-bind', `/${link}`, `/${link}`);
  }
  const visible = new Set([PROJECT_ROOT, nodeInstallDir(), ...readOnly].map((p) => path.resolve(p)));
  for (const dir of visible) {
    if (!dir.startsWith('/usr/') && dir !== '/usr' && fs.existsSync(dir)) args.push('--ro-bind', dir, dir);
  }
  for (const hidden of config.hiddenDirs) {
    // A directory inside a visible one is covered by an empty one.
    if ([...visible].some((dir) => isInside(hidden, dir)) && fs.existsSync(hidden)) args.push('--tmpfs', hidden);
  }
  args.push('--bind', workDir, workDir, '--chdir', workDir);
  return args;
}

/**
 * A shell (the worker's user, outside the namespaces) joins the control group, so every descendant
 * inherits it, and drops to the render user for `inner`. When `inner` ends after the worker died (the
 * render process leaves on its own), the shell removes the work directory, which the render cannot
 * (it sees it as a mount point), and the control group (leaving it first); otherwise the worker does
 * both, after taking the video. Its exit status is the render's (128+n for signal n).
 */
function wrap(runAs: Support['runAs'], workDir: string, inner: string[]): string[] {
  const drop = runAs
    ? ['setpriv', `--reuid=${runAs.uid}`, `--regid=${runAs.gid}`, '--clear-groups', '--no-new-privs']
    : [];
  const script = [
    'w=$1; shift; g=$CGROUP_PROCS; unset CGROUP_PROCS',
    'for f in $g; do echo $$ > "$f" || exit 125; done',
    '"$@"; s=$?',
    'kill -0 $PPID 2>/dev/null && exit $s',
    'rm -rf "$w"',
    'for f in $g; do d=${f%/cgroup.procs}; echo $$ > "${d%/*}/cgroup.procs"; for i in 1 2 3 4 5 6 7 8 9 10; ' +
      'do rmdir "$d" 2>/dev/null && break; sleep 0.3; done; done',
    'exit $s',
  ].join('; ');
  return ['/bin/sh', '-c', script, 'render-sandbox', workDir, ...drop, ...inner];
}

function nodeInstallDir(): string {
  return path.dirname(path.dirname(fs.realpathSync(process.execPath)));
}

function safeReadlink(p: string): string | null {
  try {
    return fs.readlinkSync(p);
  } catch {
    return null;
  }
}

const isInside = (child: string, parent: string) => {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
};

/** Creates a render's work directory: private to the render user (0700), owned by it when the worker is root. */
export function createWorkDir(config: RenderSandboxConfig, prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const runAs = sandboxSupport(config).runAs;
  if (runAs) fs.chownSync(dir, runAs.uid, runAs.gid);
  return dir;
}

/** Hands files the worker wrote into a work directory over to the render user. */
export function giveToRenderUser(config: RenderSandboxConfig, file: string): void {
  const runAs = sandboxSupport(config).runAs;
  if (runAs) fs.chownSync(file, runAs.uid, runAs.gid);
}
