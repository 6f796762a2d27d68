// Runs install steps that do not depend on each other at the same time, each a child process with its
// output in a log file, with one progress display: a line when a step starts and when it ends, and
// while any runs, every `heartbeatMs` a line naming the steps still running. The first step that fails
// stops the others (their whole process groups: npm, apt, go and what they started) and the run fails
// naming it, with the end of its log. Plain JavaScript with no dependencies (it runs before npm install).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * @typedef {{ name: string, title: string, command: string[], env?: object, cwd?: string }} Step
 * @param {Step[]} steps
 * @param {{ logDir: string, say: (line: string) => void, heartbeatMs?: number }} opts
 * @returns {Promise<Array<{ name: string, seconds: number }>>} each step's time; rejects on the first failure
 */
export async function runSteps(steps, { logDir, say, heartbeatMs = 10_000 }) {
  fs.mkdirSync(logDir, { recursive: true });
  const started = Date.now();
  const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);
  /** Steps running now, by name: their process (group leader) and when they started. */
  const running = new Map();
  let failure = null;
  const signalAll = (signal) => {
    for (const { child } of running.values()) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    }
  };
  // SIGTERM first (apt and npm clean up after themselves), SIGKILL for what is still there 10 s later.
  const stopOthers = () => {
    signalAll('SIGTERM');
    setTimeout(() => signalAll('SIGKILL'), 10_000).unref();
  };
  const heartbeat = setInterval(() => {
    if (running.size === 0) return;
    const list = [...running].map(([name, r]) => `${name} ${seconds(r.since)} s`).join(', ');
    say(`… still running: ${list} (${seconds(started)} s in all)`);
  }, heartbeatMs);
  heartbeat.unref();

  const results = await Promise.all(
    steps.map(async (step) => {
      const logFile = path.join(logDir, `${step.name}.log`);
      const out = fs.openSync(logFile, 'w');
      const since = Date.now();
      say(`▶ ${step.title}`);
      const child = spawn(step.command[0], step.command.slice(1), {
        cwd: step.cwd,
        env: step.env ?? process.env,
        stdio: ['ignore', out, out],
        detached: true, // its own process group: stopping it reaches what it started
      });
      fs.closeSync(out);
      const exited = new Promise((resolve) => {
        child.once('error', (err) => {
          fs.appendFileSync(logFile, `\n${err.message}\n`);
          resolve(127);
        });
        child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : code));
      });
      running.set(step.name, { child, exited, since });
      const code = await exited;
      running.delete(step.name);
      if (code === 0) {
        say(`✔ ${step.title} (${seconds(since)} s)`);
        return { name: step.name, seconds: (Date.now() - since) / 1000 };
      }
      if (failure) {
        say(`■ ${step.title} stopped`);
        return null;
      }
      const tail = fs.readFileSync(logFile, 'utf8').trim().split('\n').slice(-15).join('\n');
      failure = new Error(
        `${step.title} failed (${typeof code === 'number' ? `exit code ${code}` : code}) after ${seconds(since)} s; ` +
          `its log: ${logFile}\n${tail}`,
      );
      failure.step = step.name;
      say(`✖ ${step.title} failed; stopping ${[...running.keys()].join(', ') || 'nothing else'}`);
      stopOthers();
      return null;
    }),
  );
  clearInterval(heartbeat);
  if (failure) throw failure;
  return results;
}
