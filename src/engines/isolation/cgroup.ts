// One control group per render process: a memory limit, a task (process and thread) limit, and the
// CPU time the render has used, read by its supervisor. cgroup v2 when the unified hierarchy has the
// memory and pids controllers, else the v1 memory, pids and cpuacct hierarchies. Creating groups needs
// write access to the cgroup file system (root, or a delegated subtree); without it renders run
// without these limits and the worker says so at start.
import fs from 'node:fs';
import path from 'node:path';

const CGROUP_ROOT = '/sys/fs/cgroup';
/** Parent group of every render's group, in each hierarchy. */
const PARENT = 'video-render';

export type CgroupLimits = { memoryBytes: number; maxTasks: number };

/** Which limit a render broke, read from the kernel's counters. */
export type LimitBreach = 'memory' | 'tasks';

export type RenderCgroup = {
  /** The `cgroup.procs` files a process writes its pid to, to join the group. */
  procsFiles: string[];
  /** Sets the limits (again: a spare started under other limits takes the current ones for its render). */
  setLimits(limits: CgroupLimits): void;
  /** CPU seconds used by every process that was ever in the group. */
  cpuSeconds(): number;
  /** The limit the kernel enforced, if any (a process OOM-killed, a fork refused). */
  breach(): LimitBreach | null;
  /** Removes the group once its last processes are reaped (retried for a few seconds); never rejects. */
  remove(): Promise<void>;
};

type Layout = { version: 2 } | { version: 1; memory: string; pids: string; cpuacct: string };

let layout: Layout | null | undefined;

/** The cgroup layout renders can use here, or null (with the reason in `cgroupUnavailableReason`). */
export function cgroupLayout(): Layout | null {
  if (layout !== undefined) return layout;
  layout = null;
  try {
    const controllers = readOr(path.join(CGROUP_ROOT, 'cgroup.controllers'), '').split(/\s+/);
    if (controllers.includes('memory') && controllers.includes('pids')) {
      const parent = path.join(CGROUP_ROOT, PARENT);
      fs.mkdirSync(parent, { recursive: true });
      // Children of the root group may use the controllers only once the root hands them down.
      fs.writeFileSync(path.join(CGROUP_ROOT, 'cgroup.subtree_control'), '+memory +pids +cpu');
      fs.writeFileSync(path.join(parent, 'cgroup.subtree_control'), '+memory +pids +cpu');
      layout = { version: 2 };
    } else {
      const v1 = {
        memory: path.join(CGROUP_ROOT, 'memory'),
        pids: path.join(CGROUP_ROOT, 'pids'),
        cpuacct: path.join(CGROUP_ROOT, 'cpuacct'),
      };
      for (const dir of Object.values(v1)) fs.mkdirSync(path.join(dir, PARENT), { recursive: true });
      layout = { version: 1, ...v1 };
    }
  } catch (err) {
    cgroupUnavailableReason = (err as Error).message;
  }
  return layout;
}

export let cgroupUnavailableReason = '';

/** A new group for one render process with `limits`; null where cgroups cannot be used. */
export function createRenderCgroup(name: string, limits: CgroupLimits): RenderCgroup | null {
  const l = cgroupLayout();
  if (!l) return null;
  if (l.version === 2) {
    const dir = path.join(CGROUP_ROOT, PARENT, name);
    fs.mkdirSync(dir);
    writeIfPresent(path.join(dir, 'memory.swap.max'), '0');
    const group: RenderCgroup = {
      procsFiles: [path.join(dir, 'cgroup.procs')],
      setLimits: (l) => {
        fs.writeFileSync(path.join(dir, 'memory.max'), String(l.memoryBytes));
        fs.writeFileSync(path.join(dir, 'pids.max'), String(l.maxTasks));
      },
      cpuSeconds: () => Number(/^usage_usec (\d+)$/m.exec(readOr(path.join(dir, 'cpu.stat'), ''))?.[1] ?? 0) / 1e6,
      breach: () =>
        breachFrom(counter(path.join(dir, 'memory.events'), 'oom_kill'), counter(path.join(dir, 'pids.events'), 'max')),
      remove: () => removeWhenEmpty([dir]),
    };
    group.setLimits(limits);
    return group;
  }
  const memory = path.join(l.memory, PARENT, name);
  const pids = path.join(l.pids, PARENT, name);
  const cpuacct = path.join(l.cpuacct, PARENT, name);
  for (const dir of [memory, pids, cpuacct]) fs.mkdirSync(dir);
  const group: RenderCgroup = {
    procsFiles: [memory, pids, cpuacct].map((dir) => path.join(dir, 'cgroup.procs')),
    setLimits: (l) => {
      fs.writeFileSync(path.join(memory, 'memory.limit_in_bytes'), String(l.memoryBytes));
      fs.writeFileSync(path.join(pids, 'pids.max'), String(l.maxTasks));
    },
    cpuSeconds: () => Number(readOr(path.join(cpuacct, 'cpuacct.usage'), '0')) / 1e9,
    breach: () =>
      breachFrom(
        counter(path.join(memory, 'memory.oom_control'), 'oom_kill'),
        counter(path.join(pids, 'pids.events'), 'max'),
      ),
    remove: () => removeWhenEmpty([memory, pids, cpuacct]),
  };
  group.setLimits(limits);
  return group;
}

function breachFrom(oomKills: number, refusedForks: number): LimitBreach | null {
  if (oomKills > 0) return 'memory';
  if (refusedForks > 0) return 'tasks';
  return null;
}

/** The value of `<name> <n>` in a flat-keyed cgroup file. */
function counter(file: string, name: string): number {
  return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(readOr(file, ''))?.[1] ?? 0);
}

function readOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

function writeIfPresent(file: string, value: string) {
  if (fs.existsSync(file)) fs.writeFileSync(file, value);
}

const REMOVE_TRIES = 20;
const REMOVE_RETRY_MS = 250;

/**
 * rmdir (the only way to remove a cgroup) of each directory, again while one is busy (its last processes not yet
 * reaped).
 */
async function removeWhenEmpty(dirs: string[]): Promise<void> {
  let busy = dirs;
  for (let tries = REMOVE_TRIES; busy.length && tries > 0; tries--) {
    if (tries < REMOVE_TRIES) await new Promise((r) => setTimeout(r, REMOVE_RETRY_MS));
    busy = busy.filter((dir) => {
      try {
        fs.rmdirSync(dir);
        return false;
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === 'EBUSY';
      }
    });
  }
}
