// Before `npm start` starts anything: the ports it will listen on and the data it will own must not
// be another process's. A leftover of an earlier run (or anything else) holding them is named with
// its pid and command line, instead of a failure later in some child's log. The holder is found from
// /proc (Linux); elsewhere the port or file is named without it.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export type Claim = { what: string; port?: number; host?: string; file?: string };

/** A process that holds something: pid and command line. */
type Holder = { pid: number; command: string };

const commandOf = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim() || `pid ${pid}`;
  } catch {
    return `pid ${pid}`;
  }
};

/** Processes with an open file descriptor whose link satisfies `matches`. */
function holdersOf(matches: (link: string) => boolean): Holder[] {
  if (!fs.existsSync('/proc/self/fd')) return [];
  const found: Holder[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (matches(fs.readlinkSync(`/proc/${entry}/fd/${fd}`))) {
          found.push({ pid: Number(entry), command: commandOf(Number(entry)) });
          break;
        }
      } catch {
        // closed meanwhile
      }
    }
  }
  return found;
}

/** The socket inodes listening on `port` (any address), from /proc/net/tcp and tcp6. */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; the inode is column 10.
      if (cols.length > 9 && cols[3] === '0A' && parseInt(cols[1]!.split(':')[1]!, 16) === port) inodes.add(cols[9]!);
    }
  }
  return inodes;
}

const portFree = (port: number, host: string) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });

const described = (holders: Holder[]) =>
  holders.length ? holders.map((h) => `pid ${h.pid} (${h.command.slice(0, 200)})`).join(', ') : 'another process';

/** One line per claim another process holds; empty when everything is free. */
export async function takenClaims(claims: Claim[]): Promise<string[]> {
  const problems: string[] = [];
  for (const claim of claims) {
    if (claim.port !== undefined && !(await portFree(claim.port, claim.host ?? '0.0.0.0'))) {
      const inodes = listeningInodes(claim.port);
      const holders = holdersOf((link) => inodes.has(/^socket:\[(\d+)\]$/.exec(link)?.[1] ?? ''));
      problems.push(`${claim.what}: port ${claim.port} is taken by ${described(holders)}`);
    }
    if (claim.file !== undefined) {
      const file = path.resolve(claim.file);
      const holders = holdersOf((link) => link === file || link.startsWith(`${file}-`));
      // PostgreSQL's data directory: its postmaster.pid names a server that may still run.
      const pidFile = path.join(file, 'postmaster.pid');
      if (fs.existsSync(pidFile)) {
        const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
        if (pid > 0 && pid !== process.pid && isAlive(pid)) holders.push({ pid, command: commandOf(pid) });
      }
      if (holders.length) problems.push(`${claim.what}: ${file} is in use by ${described(holders)}`);
    }
  }
  return problems;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
