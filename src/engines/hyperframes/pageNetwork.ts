// The network a composition's page may use: only the producer's own file server, which runs in this
// render process. Compositions are written by an LLM from user prompts. The render's network
// namespace (isolation/sandbox.ts) already has nowhere to go but its own loopback; this is the second
// layer (and the only one with RENDER_SANDBOX=off): Chrome is started with every request, loopback
// included, sent through a proxy in this process, which forwards only requests to ports this process
// listens on and answers everything else 403. The same wrapper script decides Chrome's own sandbox:
// the producer always passes --no-sandbox (and --no-zygote, which Chrome refuses with a sandbox), which
// the wrapper drops unless the render runs as root.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Logger } from '../../logger.js';

export type PageNetworkGuard = {
  /** A Chrome executable (a wrapper script) whose pages go through the guard. */
  chromePath: string;
  close(): Promise<void>;
};

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export type ChromeOptions = {
  /** Chrome keeps its own sandbox (the render does not run as root). */
  sandbox: boolean;
  /** Page requests go through the refusing proxy. */
  guard: boolean;
};

/** Writes the Chrome wrapper into `dir`, starting the proxy when `opts.guard`. */
export async function guardPageNetwork(
  realChromePath: string,
  dir: string,
  log: Logger,
  opts: ChromeOptions,
): Promise<PageNetworkGuard> {
  const chromePath = path.join(dir, 'chromium-headless-shell');
  if (!opts.guard) {
    writeWrapper(chromePath, realChromePath, [], opts.sandbox);
    return { chromePath, close: async () => {} };
  }
  const refuse = (what: string) => log.warn({ request: what }, 'composition network request blocked');
  const server = http.createServer((req, res) => {
    const target = parseTarget(req.url);
    const targetPort = Number(target?.port);
    if (!target || targetPort === port || !ownListeningPorts().has(targetPort)) {
      refuse(`${req.method} ${req.url}`);
      res.writeHead(403, { 'content-type': 'text/plain' }).end('blocked: videos render without network access');
      return;
    }
    const upstream = http.request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  // HTTPS and WebSocket requests arrive as CONNECT tunnels; the producer's server needs none.
  server.on('connect', (req, socket) => {
    refuse(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  // `<-loopback>` removes Chrome's implicit proxy bypass for localhost, so loopback goes through the guard too.
  writeWrapper(
    chromePath,
    realChromePath,
    [`--proxy-server=http://127.0.0.1:${port}`, '--proxy-bypass-list=<-loopback>'],
    opts.sandbox,
  );
  return {
    chromePath,
    close: () => {
      server.closeAllConnections(); // Chrome keeps its proxy connections alive
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function parseTarget(url: string | undefined): URL | undefined {
  try {
    const target = new URL(url ?? '');
    return target.protocol === 'http:' && LOOPBACK_HOSTS.has(target.hostname) && target.port ? target : undefined;
  } catch {
    return undefined;
  }
}

/** TCP ports this process listens on: listening sockets whose inode is one of our file descriptors. */
function ownListeningPorts(): Set<number> {
  const ownSockets = new Set<string>();
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const link = fs.readlinkSync(`/proc/self/fd/${fd}`);
      if (link.startsWith('socket:[')) ownSockets.add(link.slice(8, -1));
    } catch {
      // closed meanwhile
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/self/net/tcp', '/proc/self/net/tcp6']) {
    let lines: string[];
    try {
      lines = fs.readFileSync(table, 'utf8').split('\n').slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== '0A' || !ownSockets.has(f[9]!)) continue; // 0A = LISTEN
      ports.add(parseInt(f[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

/** A shell script running Chrome with `extraArgs`, without the producer's sandbox-disabling flags when `sandbox`. */
function writeWrapper(file: string, realChromePath: string, extraArgs: string[], sandbox: boolean) {
  const dropNoSandbox = sandbox
    ? 'for a; do shift; case "$a" in --no-sandbox|--no-zygote|--single-process|--disable-gpu-sandbox) ;; ' +
      '*) set -- "$@" "$a" ;; esac; done\n'
    : '';
  fs.writeFileSync(
    file,
    `#!/bin/sh\n${dropNoSandbox}exec ${[realChromePath, ...extraArgs].map(shellQuote).join(' ')} "$@"\n`,
    { mode: 0o755 },
  );
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
