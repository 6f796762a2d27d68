// gofakes3 (an S3-compatible server, in memory) as a child process: the S3 storage of the tests and
// of `npm run cluster`. The binary comes from src/tooling/install.mjs `gofakes3()`.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { stopChild } from './temporalDevServer.js';

export type S3Server = {
  endpoint: string;
  /** The storage settings (src/config.ts) that point the service at it. */
  env: Record<string, string>;
  stop(): Promise<void>;
};

export async function startS3Server(bin: string, opts: { port: number; bucket: string }): Promise<S3Server> {
  const child = spawn(bin, ['-backend', 'memory', '-host', `127.0.0.1:${opts.port}`, '-initialbucket', opts.bucket], {
    stdio: 'ignore',
  });
  const deadline = Date.now() + 10_000;
  while (!(await isOpen(opts.port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`gofakes3 did not listen on ${opts.port}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const endpoint = `http://127.0.0.1:${opts.port}`;
  return {
    endpoint,
    env: {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: opts.bucket,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'local-key',
      S3_SECRET_ACCESS_KEY: 'local-secret',
    },
    stop: () => stopChild(child),
  };
}

function isOpen(port: number) {
  return new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(() => resolve(true)));
    socket.on('error', () => resolve(false));
  });
}
