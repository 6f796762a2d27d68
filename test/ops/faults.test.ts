// Fault tests on the real stack. In each, every generation must reach the right terminal state, be
// charged exactly once, and each webhook event must arrive with one stable id (retries allowed).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startDevServer, stopChild, type DevServer } from '../../src/tooling/temporalDevServer.js';
import type { Receiver } from '../webhooks/support/receiver.js';
import {
  createDrillGeneration,
  expectSettled as expectSettledIn,
  orgWithWebhooks as orgWithHooks,
  startDrillReceiver,
  type DrillReceiver,
} from '../support/drills.js';
import { freePort } from '../../src/tooling/ports.js';
import { startTcpProxy, type TcpProxy } from '../support/tcpProxy.js';
import { api, startStack, waitForTerminal, type TestStack } from '../support/stack.js';

let drill: DrillReceiver;
let receiver: Receiver;
beforeAll(async () => {
  drill = await startDrillReceiver();
  receiver = drill.receiver;
});
afterAll(() => drill?.close());

const webhookEnv = () => drill.env;
const orgWithWebhooks = (stack: TestStack) => orgWithHooks(stack.db);
const create = (base: string, key: string, body: Record<string, unknown> = {}) =>
  createDrillGeneration(base, key, receiver, body);
const expectSettled = (stack: TestStack, key: string, id: string, status = 'completed') =>
  expectSettledIn(stack.db, stack.url, key, receiver, id, status);

describe('PostgreSQL unreachable for a while', () => {
  let proxy: TcpProxy;
  let stack: TestStack;
  beforeAll(async () => {
    const db = new URL(inject('databaseUrl'));
    proxy = await startTcpProxy(db.hostname, Number(db.port));
    db.host = `127.0.0.1:${proxy.port}`;
    stack = await startStack({ DATABASE_URL: db.toString(), ...webhookEnv() });
  });
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
  });

  it('readiness turns 503, generations in flight finish after recovery without manual steps', async () => {
    const { key } = await orgWithWebhooks(stack);
    const ids = [(await create(stack.url, key)).id, (await create(stack.url, key)).id];
    await proxy.cut();
    const ready = await api(stack.url, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.database).toMatch(/^unavailable/);
    // A request that needs the database says so with a 503: not a 500, and not a 401 for a valid key
    // whose lookup could not run.
    const during = await api(stack.url, `/v1/responses/${ids[0]}`, { key });
    expect(during.status, JSON.stringify(during.body)).toBe(503);
    expect(during.body.error.code).toBe('temporarily_unavailable');
    await new Promise((r) => setTimeout(r, 4000));
    await proxy.restore();
    const deadline = Date.now() + 30_000;
    while ((await api(stack.url, '/readyz')).status !== 200) {
      if (Date.now() > deadline) throw new Error('never ready again');
      await new Promise((r) => setTimeout(r, 200));
    }
    for (const id of ids) await expectSettled(stack, key, id);
  }, 240_000);
});

describe('API process restarted while clients poll', () => {
  let stack: TestStack;
  let apiProcess: ChildProcess | undefined;
  beforeAll(async () => {
    stack = await startStack(webhookEnv());
  });
  afterAll(async () => {
    if (apiProcess) await stopChild(apiProcess);
    await stack?.close();
  });

  it('polls ride through the restart: no 5xx, the generation completes', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const startApiProcess = async () => {
      apiProcess = spawn(process.execPath, ['--import', 'tsx', 'src/app/api.ts'], {
        env: { ...stack.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: base },
        stdio: 'ignore',
      });
      const deadline = Date.now() + 30_000;
      for (;;) {
        try {
          if ((await fetch(`${base}/healthz`)).ok) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error('API did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await startApiProcess();
    const { key } = await orgWithWebhooks(stack);
    const { id } = await create(base, key, { engine: 'hyperframes', width: 360, height: 640 });

    // Every answer the polling client got (those from `restartedAt` on came after the restart).
    const statuses: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        let status = 0; // connection refused while the API restarts: clients retry
        try {
          status = (await api(base, `/v1/responses/${id}`, { key })).status;
        } catch {
          // counted as 0
        }
        statuses.push(status);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const answered = async (from: number) => {
      while (!statuses.slice(from).includes(200)) await new Promise((r) => setTimeout(r, 50));
    };
    await answered(0);
    await stopChild(apiProcess!);
    await startApiProcess();
    const restartedAt = statuses.length;
    await expectSettled({ ...stack, url: base }, key, id);
    await answered(restartedAt);
    polling = false;
    await poller;
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.slice(0, restartedAt)).toContain(200);
    expect(statuses.slice(restartedAt)).toContain(200);
  }, 240_000);
});

describe('Temporal server stopped and restarted with its persistent database', () => {
  let dir: string;
  let server: DevServer;
  let port: number;
  let stack: TestStack;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-restart-'));
    port = await freePort();
    server = await startDevServer({
      cliPath: inject('temporalCliPath'),
      port,
      uiPort: null,
      dbFile: path.join(dir, 'temporal.db'),
    });
    stack = await startStack({ TEMPORAL_ADDRESS: server.address, ...webhookEnv() });
  });
  afterAll(async () => {
    await stack?.close();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('generations in flight complete after the server comes back', async () => {
    const { key } = await orgWithWebhooks(stack);
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await create(stack.url, key, { engine: 'hyperframes', width: 360, height: 640, input: `Restart drill ${i}` }))
          .id,
      );
    await new Promise((r) => setTimeout(r, 1500));
    await server.stop();
    await new Promise((r) => setTimeout(r, 3000));
    server = await startDevServer({
      cliPath: inject('temporalCliPath'),
      port,
      uiPort: null,
      dbFile: path.join(dir, 'temporal.db'),
    });
    for (const id of ids) await expectSettled(stack, key, id);
  }, 300_000);
});

describe('a provider and a webhook receiver that hang', () => {
  let stack: TestStack;
  let dir: string;
  let hangingLlm: import('node:http').Server;
  beforeAll(async () => {
    // An OpenAI-compatible endpoint that accepts connections and never answers.
    const http = await import('node:http');
    hangingLlm = http.createServer(() => {});
    await new Promise<void>((r) => hangingLlm.listen(0, '127.0.0.1', r));
    const llmPort = (hangingLlm.address() as import('node:net').AddressInfo).port;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hang-'));
    const file = path.join(dir, 'providers.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        providers: {
          stuck: {
            protocol: 'openai',
            base_url: `http://127.0.0.1:${llmPort}/v1`,
            timeout_seconds: 1,
            models: { 'gpt-4o-mini': 'stuck-mini' },
          },
          local: { protocol: 'local' },
        },
      }),
    );
    stack = await startStack({ PROVIDERS_FILE: file, ...webhookEnv() });
  });
  afterAll(async () => {
    await stack?.close();
    hangingLlm?.closeAllConnections();
    await new Promise((r) => hangingLlm?.close(r));
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the hanging provider times out and the next one writes the composition', async () => {
    const { key } = await orgWithWebhooks(stack);
    const { id } = await create(stack.url, key, { provider: { order: ['stuck', 'local'] } });
    await expectSettled(stack, key, id);
    expect((await api(stack.url, `/v1/responses/${id}`, { key })).body.provider).toBe('local');
  }, 120_000);

  it('a hanging receiver never delays the generation; the event is retried under the same id', async () => {
    const { key } = await orgWithWebhooks(stack);
    const hangs = new Set<string>();
    receiver.respond((req) => {
      const event = JSON.parse(req.body);
      // The first attempt of each completed event hangs past the 15 s delivery timeout.
      if (event.type === 'video.generation.completed' && !hangs.has(event.id)) {
        hangs.add(event.id);
        return { status: 200, hang: true };
      }
      return { status: 200 };
    });
    try {
      const started = Date.now();
      const { id } = await create(stack.url, key);
      const done = await waitForTerminal(stack.url, key, id, 60_000);
      expect(done.body.status).toBe('completed');
      expect(Date.now() - started).toBeLessThan(15_000);
      // The first completed delivery hangs until the 15 s timeout; the retry carries the same id.
      const completedDeliveries = () =>
        receiver.requests
          .map((r) => JSON.parse(r.body))
          .filter((e) => e.data.object.id === id && e.type === 'video.generation.completed');
      const deadline = Date.now() + 45_000;
      while (completedDeliveries().length < 2) {
        if (Date.now() > deadline) throw new Error('the hung delivery was never retried');
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(new Set(completedDeliveries().map((e) => e.id)).size).toBe(1);
      await expectSettled(stack, key, id);
    } finally {
      receiver.respond(() => ({ status: 200 }));
    }
  }, 120_000);
});
