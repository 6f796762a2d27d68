// The supervisor of `npm start` on short-lived real processes: restarts with a doubling delay, the
// crash limit, start order by dependency, and stops that never restart anything.
// test/ops/selfHealing.test.ts drives the whole `npm start` topology through the same code.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createSupervisor, exitOf, type RestartPolicy, type Service } from '../../src/tooling/supervisor.js';
import { stopChild } from '../../src/tooling/temporalDevServer.js';

type TestService = Service & { starts: number[]; pids: number[] };

/** A node process running `code` (default: forever), up as soon as it is spawned. */
function processService(
  name: string,
  opts: { code?: string; after?: string[]; gate?: () => Promise<void>; events?: string[] } = {},
): TestService {
  const service: TestService = {
    name,
    after: opts.after,
    starts: [],
    pids: [],
    async start(output) {
      await opts.gate?.();
      const child = spawn(process.execPath, ['-e', opts.code ?? 'setInterval(() => {}, 1000)'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.on('data', (d: Buffer) => output(d.toString()));
      service.starts.push(Date.now());
      service.pids.push(child.pid!);
      opts.events?.push(`${name} up`);
      return { pid: child.pid, exited: exitOf(child), stop: () => stopChild(child) };
    },
  };
  return service;
}

/** Until `condition` holds (it reads in-memory state the supervisor changes on process events). */
async function until(condition: () => boolean) {
  while (!condition()) await new Promise((r) => setTimeout(r, 10));
}

const kill = (pid: number) => process.kill(pid, 'SIGKILL');

describe('supervisor', () => {
  it(
    'restarts a process that exits unexpectedly, doubling the delay up to the maximum; ' +
      'the crash limit stops everything with code 1',
    async () => {
      const policy: RestartPolicy = { firstDelayMs: 40, maxDelayMs: 100, crashes: 5, windowMs: 60_000 };
      let stoppedWith: number | null = null;
      const supervisor = createSupervisor(policy, (code) => (stoppedWith = code));
      const flaky = processService('flaky', { code: 'console.log("about to fail"); process.exit(3)' });
      void supervisor.run(flaky);
      await until(() => stoppedWith !== null);
      expect(stoppedWith).toBe(1);
      expect(flaky.starts).toHaveLength(5);
      const gaps = flaky.starts.slice(1).map((t, i) => t - flaky.starts[i]!);
      // Lower bounds only (each gap also holds a process's life): 40, 80, then capped at 100.
      [40, 80, 100, 100].forEach((delay, i) => expect(gaps[i]).toBeGreaterThanOrEqual(delay));
      expect(supervisor.states().flaky).toMatchObject({ restarts: 4, last_exit: 'exit code 3' });
    },
  );

  it('starts a process once those it needs are up, and restarts it only after them', async () => {
    const events: string[] = [];
    let open = () => {};
    let gated = false;
    const db = processService('db', {
      events,
      gate: () => (gated ? new Promise<void>((r) => (open = r)) : Promise.resolve()),
    });
    const app = processService('app', { after: ['db'], events });
    const supervisor = createSupervisor({ firstDelayMs: 0, maxDelayMs: 0, crashes: 10, windowMs: 60_000 });
    try {
      await Promise.all([supervisor.run(app), supervisor.run(db)]);
      expect(events).toEqual(['db up', 'app up']);

      // The database crashes; its restart waits on the gate. The app keeps running meanwhile.
      gated = true;
      kill(db.pids[0]!);
      await until(() => supervisor.states().db!.state === 'restarting');
      expect(supervisor.states().app!.state).toBe('up');
      // The app crashes too: it comes back only after the database.
      kill(app.pids[0]!);
      await until(() => supervisor.states().app!.state === 'restarting');
      expect(app.starts).toHaveLength(1);
      open();
      await until(() => supervisor.states().app!.state === 'up' && supervisor.states().db!.state === 'up');
      expect(events).toEqual(['db up', 'app up', 'db up', 'app up']);
      expect(supervisor.states()).toMatchObject({
        db: { restarts: 1, last_exit: 'signal SIGKILL' },
        app: { restarts: 1, last_exit: 'signal SIGKILL' },
      });
    } finally {
      await supervisor.stopAll(0);
    }
  });

  it('a stop restarts nothing: neither what it stops nor what waits out a restart delay', async () => {
    const supervisor = createSupervisor({ firstDelayMs: 60_000, maxDelayMs: 60_000, crashes: 5, windowMs: 60_000 });
    const steady = processService('steady');
    const crashing = processService('crashing', { code: 'process.exit(1)' });
    await supervisor.run(steady);
    void supervisor.run(crashing);
    await until(() => supervisor.states().crashing!.state === 'restarting');
    // Without the stop, the next start of `crashing` would come a minute from now: the stop ends that wait.
    expect(await supervisor.stopAll(0)).toBe(0);
    expect(await supervisor.stopAll(1)).toBe(0); // a second stop changes nothing
    expect(steady.starts).toHaveLength(1);
    expect(crashing.starts).toHaveLength(1);
    expect(supervisor.states().steady).toMatchObject({ state: 'stopping', restarts: 0, last_exit: null });
    expect(() => process.kill(steady.pids[0]!, 0)).toThrow(); // gone
  });
});
