// The OS sandbox of renders (src/engines/isolation/sandbox.ts) against hostile compositions, on real
// renders: the network namespace alone (page network guard off) lets no connection out, a memory
// hog and a thread bomb are stopped as `render_resource_limit` while the engine keeps working, the
// render process sees no credential, Chrome keeps its own sandbox, work directories are private.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { getEngine, RenderError, type RenderTools, renderTools } from '../../src/engines/index.js';
import { closeRenderProcesses, spareWorkDirs } from '../../src/engines/isolation/renderProcess.js';
import { checkSandbox, createWorkDir, sandboxedSpawn } from '../../src/engines/isolation/sandbox.js';
import { fixture, tools, useRenderSandbox, waitFor } from './support.js';

const sandbox = useRenderSandbox('sandbox', (e) => e.startsWith('video-render-'));
const hyperframes = getEngine('hyperframes');
const canvas = { width: 320, height: 180 };
const renderUid = Number(spawnSync('id', ['-u', tools.sandbox.user], { encoding: 'utf8' }).stdout.trim());
// The page network proxy off (RENDER_PAGE_NETWORK_GUARD, the HyperFrames engine's own setting): the namespace alone.
const unguarded: RenderTools = renderTools(loadConfig({ ...process.env, RENDER_PAGE_NETWORK_GUARD: 'off' }));

/** The fixture composition with `script` run by the page before its timeline. */
const hostile = (script: string) =>
  fixture('gsap-box.html').replace('<script>\n    const tl', `<script>\n${script}\n</script>\n<script>\n    const tl`);

async function renderError(p: Promise<unknown>): Promise<RenderError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RenderError);
  return error as RenderError;
}

/** TCP listeners on the host's loopback counting the connections they accept. */
async function listener() {
  const server = net.createServer((socket) => {
    counted.connections++;
    socket.destroy();
  });
  const counted = { connections: 0, port: 0, close: () => new Promise<void>((r) => server.close(() => r())) };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  counted.port = (server.address() as net.AddressInfo).port;
  return counted;
}

describe('render sandbox', () => {
  const secrets = {
    DATABASE_URL: 'postgres://user:hunter2-db@127.0.0.1:5432/x',
    MEDIA_URL_SECRET: 'media-secret-'.padEnd(40, 'x'),
    S3_SECRET_ACCESS_KEY: 's3-secret-key-value',
  };
  const saved: Record<string, string | undefined> = {};
  beforeAll(async () => {
    for (const [k, v] of Object.entries(secrets)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    await closeRenderProcesses(); // spares started before the secrets were set would prove nothing
  });
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it(
    'lets no connection out of the page with the page network guard off: fetch, WebSocket, <img> to PostgreSQL, ' +
      'API and Temporal ports',
    { timeout: 120_000 },
    async () => {
      const targets = { postgres: await listener(), api: await listener(), temporal: await listener() };
      const ports = Object.values(targets).map((t) => t.port);
      const script = `
      for (const port of ${JSON.stringify(ports)}) {
        fetch('http://127.0.0.1:' + port + '/').catch(() => {});
        fetch('http://localhost:' + port + '/', { mode: 'no-cors' }).catch(() => {});
        try { new WebSocket('ws://127.0.0.1:' + port + '/'); } catch {}
        const img = new Image(); img.src = 'http://127.0.0.1:' + port + '/x.png'; document.body.appendChild(img);
      }`;
      const chrome: Proc[] = [];
      await hyperframes.render(hostile(script), {
        tools: unguarded,
        ...canvas,
        outputPath: path.join(sandbox.out, 'net.mp4'),
        // Mid-capture: every renderer has long since entered its sandbox (a starting one has not yet).
        // Only the render's Chrome (the render user's): other test files run browsers of their own meanwhile.
        onProgress: ({ fraction }) => {
          if (chrome.length === 0 && fraction >= 0.5)
            chrome.push(...chromeProcesses().filter((p) => p.uid === renderUid));
        },
      });
      try {
        for (const [name, t] of Object.entries(targets))
          expect({ name, connections: t.connections }).toEqual({ name, connections: 0 });
        // Chrome kept its own sandbox: no --no-sandbox, renderers under seccomp-bpf, as the render user.
        expect(chrome.length).toBeGreaterThan(0);
        expect(chrome.filter((p) => p.args.includes('--no-sandbox'))).toEqual([]);
        const renderers = chrome.filter((p) => p.args.includes('--type=renderer'));
        expect(renderers.length).toBeGreaterThan(0);
        for (const { seccomp, uid } of renderers) expect({ seccomp, uid }).toEqual({ seccomp: '2', uid: renderUid });
      } finally {
        await Promise.all(Object.values(targets).map((t) => t.close()));
      }
    },
  );

  it(
    'the same page without the sandbox does reach the listeners (the check above can see connections)',
    { timeout: 120_000 },
    async () => {
      const target = await listener();
      const off: RenderTools = { ...unguarded, sandbox: { ...unguarded.sandbox, mode: 'off' } };
      await closeRenderProcesses(); // the spare was started sandboxed
      try {
        await hyperframes.render(hostile(`fetch('http://127.0.0.1:${target.port}/').catch(() => {});`), {
          tools: off,
          ...canvas,
          outputPath: path.join(sandbox.out, 'net-off.mp4'),
        });
        expect(await waitFor(() => target.connections > 0, 5000)).toBe(true);
      } finally {
        await target.close();
        await closeRenderProcesses(); // the spare was started unsandboxed
      }
    },
  );

  it('refuses to run renders when the sandbox cannot be had (the worker stops with this message)', () => {
    expect(() => checkSandbox({ ...tools.sandbox, user: 'no-such-render-user' })).toThrow(
      /RENDER_SANDBOX=on but the render user "no-such-render-user" does not exist/,
    );
    expect(checkSandbox(tools.sandbox)).toEqual([]); // this machine: bubblewrap, the render user, cgroups
  });

  it('has no route anywhere: only its own loopback, no default route (so no public address is reachable)', async () => {
    const workDir = createWorkDir(tools.sandbox, 'video-render-probe-');
    const run = sandboxedSpawn(
      tools.sandbox,
      `probe-${process.pid}`,
      ['/bin/cat', '/proc/net/route', '/proc/net/dev'],
      workDir,
      [],
      {},
    );
    try {
      const out = execFileSync(run.command, run.args, { env: run.env, encoding: 'utf8' });
      const routes = out.split('\n').filter((l) => /^\S+\t[0-9A-F]{8}\t/.test(l));
      expect(routes).toEqual([]);
      const interfaces = out
        .split('\n')
        .filter((l) => /^\s*\w+:/.test(l))
        .map((l) => l.trim().split(':')[0]);
      expect(interfaces).toEqual(['lo']);
    } finally {
      await run.cgroup?.remove();
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  });

  it(
    'stops a composition that allocates memory without end with render_resource_limit; the next render works',
    { timeout: 180_000 },
    async () => {
      const limited: RenderTools = { ...tools, sandbox: { ...tools.sandbox, memoryBytes: 1024 * 2 ** 20 } };
      const script = 'const hoard = []; for (;;) { const b = new Uint8Array(32 << 20); b.fill(7); hoard.push(b); }';
      const error = await renderError(
        hyperframes.render(hostile(script), {
          tools: limited,
          ...canvas,
          outputPath: path.join(sandbox.out, 'oom.mp4'),
        }),
      );
      expect(error.code).toBe('render_resource_limit');
      expect(error.message).toMatch(/memory limit of 1024 MiB/);
      const ok = await hyperframes.render(fixture('gsap-box.html'), {
        tools,
        ...canvas,
        outputPath: path.join(sandbox.out, 'after-oom.mp4'),
      });
      expect(ok.frames).toBe(30);
    },
  );

  it(
    'stops a composition that spawns workers without end (threads) with render_resource_limit',
    { timeout: 180_000 },
    async () => {
      const limited: RenderTools = { ...tools, sandbox: { ...tools.sandbox, maxTasks: 200 } };
      const script =
        "const code = URL.createObjectURL(new Blob(['setInterval(() => {}, 1000)'])); const all = []; " +
        'for (let i = 0; i < 5000; i++) all.push(new Worker(code));';
      const error = await renderError(
        hyperframes.render(hostile(script), {
          tools: limited,
          ...canvas,
          outputPath: path.join(sandbox.out, 'bomb.mp4'),
        }),
      );
      expect(error.code).toBe('render_resource_limit');
      expect(error.message).toMatch(/more than 200 processes and threads/);
      const ok = await getEngine('lottie').render(fixture('text-and-box.lottie.json'), {
        tools,
        width: 360,
        height: 640,
        outputPath: path.join(sandbox.out, 'after-bomb.mp4'),
      });
      expect(ok.frames).toBe(30);
    },
  );

  it(
    'stops a render over its CPU-time or file-size limit with render_resource_limit',
    { timeout: 120_000 },
    async () => {
      const lottie = getEngine('lottie');
      // CPU: the whole render's control group, the waiting spare's start-up included, is over 1 s at the first check.
      await lottie.render(fixture('text-and-box.lottie.json'), {
        tools,
        width: 360,
        height: 640,
        outputPath: path.join(sandbox.out, 'warm.mp4'),
      });
      expect(await waitFor(() => spareWorkDirs('lottie').length === 1, 10_000)).toBe(true);
      const cpu: RenderTools = { ...tools, sandbox: { ...tools.sandbox, cpuSeconds: 1 } };
      // Ten seconds of frames that all differ (the box turns), so that no machine renders it in a second of CPU.
      const busy = JSON.parse(fixture('text-and-box.lottie.json')) as {
        op: number;
        layers: { op: number; ks: { r: unknown } }[];
      };
      busy.op = 300;
      for (const layer of busy.layers) {
        layer.op = 300;
        layer.ks.r = {
          a: 1,
          k: [
            { i: { x: 0.5, y: 0.5 }, o: { x: 0.5, y: 0.5 }, t: 0, s: [0] },
            { t: 299, s: [720] },
          ],
        };
      }
      const slow = await renderError(
        lottie.render(JSON.stringify(busy), {
          tools: cpu,
          width: 1080,
          height: 1920,
          outputPath: path.join(sandbox.out, 'cpu.mp4'),
        }),
      );
      expect(slow.code).toBe('render_resource_limit');
      expect(slow.message).toMatch(/CPU-time limit of 1 s/);
      // File size: an rlimit set when the render process starts, so not the waiting spare.
      await closeRenderProcesses();
      const small: RenderTools = { ...tools, sandbox: { ...tools.sandbox, maxFileBytes: 4 * 1024 } };
      const big = await renderError(
        lottie.render(fixture('text-and-box.lottie.json'), {
          tools: small,
          width: 1080,
          height: 1920,
          outputPath: path.join(sandbox.out, 'big.mp4'),
        }),
      );
      expect(big.code).toBe('render_resource_limit');
      expect(big.message).toMatch(/wrote a file of more than 4 KiB/);
      await closeRenderProcesses(); // its spare keeps the small limit
    },
  );

  it(
    'gives the render process no credential of the worker, and a private work directory',
    { timeout: 120_000 },
    async () => {
      await getEngine('lottie').render(fixture('text-and-box.lottie.json'), {
        tools,
        width: 360,
        height: 640,
        outputPath: path.join(sandbox.out, 'env.mp4'),
      });
      // The spare now waiting is a render process like any other: read its environment from /proc.
      expect(await waitFor(() => spareWorkDirs('lottie').length === 1, 10_000)).toBe(true);
      const [workDir] = spareWorkDirs('lottie');
      const node = await waitForProcess((p) => p.args.includes('childEntry.mjs') && p.uid === renderUid);
      const environ = fs.readFileSync(`/proc/${node.pid}/environ`, 'utf8');
      for (const [name, value] of Object.entries(secrets)) {
        expect(environ).not.toContain(name);
        expect(environ).not.toContain(value);
      }
      expect(
        environ
          .split('\0')
          .filter(Boolean)
          .map((v) => v.split('=')[0])
          .sort(),
      ).toEqual(expect.arrayContaining(['HOME', 'PATH', 'VIDEO_API_RENDER_ID']));
      const stat = fs.statSync(workDir!);
      expect((stat.mode & 0o777).toString(8)).toBe('700');
      expect(stat.uid).toBe(renderUid);
    },
  );
});

type Proc = { pid: number; args: string; uid: number; seccomp: string };

/** Every process running now: arguments, real uid, seccomp mode. */
function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const args = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ');
      const status = fs.readFileSync(`/proc/${name}/status`, 'utf8');
      out.push({
        pid: Number(name),
        args,
        uid: Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]),
        seccomp: /^Seccomp:\s+(\d)/m.exec(status)?.[1] ?? '',
      });
    } catch {
      // gone
    }
  }
  return out;
}

async function waitForProcess(match: (p: Proc) => boolean): Promise<Proc> {
  let found: Proc | undefined;
  await waitFor(() => Boolean((found = processes().find(match))), 10_000);
  if (!found) throw new Error('process not found');
  return found;
}

const chromeProcesses = () => processes().filter((p) => p.args.split(' ')[0]!.endsWith('chromium-headless-shell'));
