// The watchdog `npm start`'s supervisor starts beside itself, so that nothing it started outlives it,
// however it dies (Ctrl-C, a closed terminal, `kill -9`, the out-of-memory killer). Linux's
// PR_SET_PDEATHSIG does this per child, but Node cannot set it for the children it spawns and the
// Temporal dev server (a Go binary) runs in a process group of its own. So: while the supervisor
// lives, the watchdog notes every process descending from it (from /proc, with each one's start time,
// so a reused pid is never mistaken for one of them); when the supervisor is gone (its pipe to us
// closes: the kernel closes it on any death), it sends them SIGTERM, and SIGKILL to those still there
// after GRACE_MS. Plain JavaScript with no imports of the project: it must start in milliseconds.
// Without /proc (macOS) it does nothing.
import fs from 'node:fs';

const supervisor = Number(process.argv[2]);
const SNAPSHOT_MS = 250;
const GRACE_MS = 10_000;

/** pid → [ppid, start time] of every process, from /proc/<pid>/stat. */
function processTable() {
  const table = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name (field 2) may hold spaces and parentheses: fields after its last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(entry), [Number(fields[1]), fields[19]]);
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

/** The supervisor's descendants now: pid → start time. */
function descendants() {
  const table = processTable();
  const found = new Map();
  let frontier = [supervisor];
  while (frontier.length) {
    const next = [];
    for (const [pid, [ppid, start]] of table)
      if (frontier.includes(ppid) && !found.has(pid) && pid !== process.pid) {
        found.set(pid, start);
        next.push(pid);
      }
    frontier = next;
  }
  return found;
}

const startOf = (pid) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return null;
  }
};

if (fs.existsSync('/proc/self/stat') && supervisor > 0) {
  // Signals meant for the supervisor's terminal (Ctrl-C, hang-up) are not ours: it stops its children itself.
  for (const signal of ['SIGINT', 'SIGHUP', 'SIGTERM']) process.on(signal, () => {});
  let known = new Map();
  const timer = setInterval(() => {
    // Processes that ended are forgotten; new ones are added (a snapshot taken as the supervisor dies may be partial).
    const now = descendants();
    for (const [pid, start] of known) if (startOf(pid) === start && !now.has(pid)) now.set(pid, start);
    known = now;
  }, SNAPSHOT_MS);
  const alive = () => [...known].filter(([pid, start]) => startOf(pid) === start).map(([pid]) => pid);
  const signalAll = (signal) => {
    for (const pid of alive()) {
      try {
        process.kill(pid, signal);
      } catch {
        // already gone
      }
    }
  };
  const reap = () => {
    clearInterval(timer);
    signalAll('SIGTERM');
    const deadline = Date.now() + GRACE_MS;
    const check = setInterval(() => {
      if (alive().length === 0 || Date.now() > deadline) {
        clearInterval(check);
        signalAll('SIGKILL');
        process.exit(0);
      }
    }, 100);
  };
  process.stdin.on('data', () => {});
  process.stdin.on('end', reap);
  process.stdin.on('error', reap);
  process.stdin.resume();
} else {
  process.exit(0);
}
