// Finding and killing every process a render started. A render child runs in its own process group,
// but Chrome (launched by puppeteer with `detached`) starts a new session of its own, so killing one
// group is not enough. Every process of a render inherits the marker variable RENDER_MARKER_ENV
// (Chrome's helper processes do not, but they share the Chrome browser's group), so the process
// groups of marked processes — remembered while the render runs, because a group outlives its
// leader — cover the whole tree. Linux /proc only.
import fs from 'node:fs';

export const RENDER_MARKER_ENV = 'VIDEO_API_RENDER_ID';

export type ProcessInfo = {
  pid: number;
  ppid: number;
  pgid: number;
  rssBytes: number;
  cpuSeconds: number;
  marked: boolean;
};

const PAGE_SIZE = 4096;
/** Linux USER_HZ: /proc CPU times are in 1/100 s. */
const CLOCK_TICKS = 100;

function readProcess(pid: number, marker: string): ProcessInfo | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name: state ppid pgrp session … rss is field 24 overall.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return undefined; // dead, waiting to be reaped
    const ppid = Number(fields[1]);
    const pgid = Number(fields[2]);
    const rssPages = Number(fields[21]);
    const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime + stime
    let marked = false;
    try {
      marked = `\0${fs.readFileSync(`/proc/${pid}/environ`, 'latin1')}`.includes(marker);
    } catch {
      // Not ours to read (another user) or already gone.
    }
    return { pid, ppid, pgid, rssBytes: rssPages * PAGE_SIZE, cpuSeconds, marked };
  } catch {
    return undefined; // exited while we looked
  }
}

/** Every live process, with `marked` set for those whose environment holds `RENDER_MARKER_ENV=<id>`. */
export function listProcesses(renderId: string): ProcessInfo[] {
  const marker = `\0${RENDER_MARKER_ENV}=${renderId}\0`;
  const out: ProcessInfo[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = readProcess(Number(name), marker);
    if (info) out.push(info);
  }
  return out;
}

export function ownProcessGroup(): number {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

/**
 * Watches the process tree of one render: the groups it owns and its peak memory.
 * `sample()` is cheap enough (a /proc scan) to run every few hundred milliseconds.
 */
export class RenderProcessTree {
  readonly groups = new Set<number>();
  peakRssBytes = 0;
  private readonly ownGroup = ownProcessGroup();

  constructor(
    readonly renderId: string,
    /** The render process; undefined when it could not be spawned. */
    readonly rootPid: number | undefined,
  ) {
    if (rootPid) this.groups.add(rootPid); // the child is spawned detached: it leads its own group
  }

  /** Processes of the render now: marked ones, descendants of the root, members of its groups. */
  members(): ProcessInfo[] {
    const all = listProcesses(this.renderId);
    const children = new Map<number, ProcessInfo[]>();
    for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
    const found = new Map<number, ProcessInfo>();
    const visit = (p: ProcessInfo) => {
      if (found.has(p.pid)) return;
      found.set(p.pid, p);
      for (const c of children.get(p.pid) ?? []) visit(c);
    };
    for (const p of all) {
      if (p.pid === this.rootPid || p.marked || this.groups.has(p.pgid)) visit(p);
    }
    return [...found.values()].filter((p) => p.pid !== process.pid);
  }

  sample(): ProcessInfo[] {
    const members = this.members();
    let rss = 0;
    for (const p of members) {
      rss += p.rssBytes;
      if (p.pgid !== this.ownGroup) this.groups.add(p.pgid);
    }
    this.peakRssBytes = Math.max(this.peakRssBytes, rss);
    return members;
  }

  /** SIGKILL every group and process of the render. Returns how many processes were still alive. */
  killAll(): number {
    const members = this.sample();
    for (const pgid of this.groups) {
      if (pgid !== this.ownGroup) sigkill(-pgid);
    }
    for (const p of members) sigkill(p.pid);
    return members.length;
  }
}

/** SIGKILL a pid (or a group, negative); never init, "every process" (-1) or ourselves. */
function sigkill(target: number) {
  if (!Number.isInteger(target) || Math.abs(target) <= 1 || target === process.pid) return;
  try {
    process.kill(target, 'SIGKILL');
  } catch {
    // ESRCH: already gone.
  }
}
