// Media assets in and out of both storage drivers as files (putBytes / getToFile): the local
// directory, and S3 through gofakes3 (the binary test/storage/s3.test.ts builds into the tools cache;
// skipped, saying why, when it is not there).
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { toolsCacheDir } from '../../src/dev/install.mjs';
import { getToFile, putBytes } from '../../src/media/storageFiles.js';
import { createStorage, LocalStorage, type Storage } from '../../src/storage/index.js';
import { freePort } from '../support/ports.js';

const GOFAKES3 = path.join(toolsCacheDir(), 'gofakes3-v1.2.0', 'gofakes3');
const bytes = crypto.randomBytes(300_000);
let dir: string;
let s3: ChildProcess | undefined;
const storages: [string, () => Storage][] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-storage-'));
  const local = new LocalStorage({ root: path.join(dir, 'media'), secret: 'x'.repeat(32), publicBaseUrl: 'http://localhost', ttlSeconds: 60 });
  storages.push(['local', () => local]);
  if (fs.existsSync(GOFAKES3)) {
    const port = await freePort();
    s3 = spawn(GOFAKES3, ['-backend', 'memory', '-host', `127.0.0.1:${port}`, '-initialbucket', 'videos'], { stdio: 'ignore' });
    for (let i = 0; i < 200 && !(await isOpen(port)); i++) await new Promise((r) => setTimeout(r, 50));
    const storage = createStorage(
      loadConfig({
        STORAGE_DRIVER: 's3',
        S3_BUCKET: 'videos',
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'k',
        S3_SECRET_ACCESS_KEY: 's',
      }),
    );
    storages.push(['s3', () => storage]);
  } else {
    console.warn(`[storageFiles.test] S3 case SKIPPED: ${GOFAKES3} is not built (test/storage/s3.test.ts builds it)`);
  }
});
afterAll(() => {
  s3?.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

function isOpen(port: number) {
  return new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(() => resolve(true)));
    socket.on('error', () => resolve(false));
  });
}

describe('media files in storage', () => {
  it('putBytes then getToFile gives the same bytes back, on every driver here; a missing key throws', async () => {
    expect(storages.length).toBeGreaterThan(0);
    for (const [driver, storage] of storages) {
      const key = `generations/gen_files/assets/image-1.png`;
      await putBytes(storage(), key, bytes, 'image/png');
      const out = path.join(dir, `${driver}.png`);
      await getToFile(storage(), key, out);
      expect(fs.readFileSync(out).equals(bytes), driver).toBe(true);
      await expect(getToFile(storage(), 'generations/gen_files/assets/nothing.png', path.join(dir, 'x')), driver).rejects.toThrow();
    }
  });
});
