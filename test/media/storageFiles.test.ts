// Media assets in and out of both storage drivers as files (putBytes / getToFile): the local
// directory, and S3 through gofakes3 (built into the tools cache by `npm test`'s installer; outside
// CI skipped, saying why, when it is not there).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { gofakes3 } from '../../src/tooling/install.mjs';
import { startS3Server, type S3Server } from '../../src/tooling/s3Server.js';
import { getToFile, putBytes } from '../../src/media/storageFiles.js';
import { createStorage, LocalStorage, type Storage } from '../../src/storage/index.js';
import { mediaAssetKey } from '../../src/storage/keys.js';
import { freePort } from '../../src/tooling/ports.js';
import { skipWithout } from '../support/tools.js';

const bytes = crypto.randomBytes(300_000);
let dir: string;
let s3: S3Server | undefined;
const storages: [string, () => Storage][] = [];
const withoutS3 = skipWithout('the S3 case of the media file tests', 'gofakes3 (Go-built S3 server)');

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-storage-'));
  const local = new LocalStorage({
    root: path.join(dir, 'media'),
    secret: 'x'.repeat(32),
    publicBaseUrl: 'http://localhost',
    ttlSeconds: 60,
  });
  storages.push(['local', () => local]);
  const tool = gofakes3({ build: false });
  if (!withoutS3 && tool.bin) {
    s3 = await startS3Server(tool.bin.gofakes3, { port: await freePort(), bucket: 'videos' });
    const storage = createStorage(loadConfig(s3.env));
    storages.push(['s3', () => storage]);
  }
});
afterAll(async () => {
  await s3?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('media files in storage', () => {
  it('putBytes then getToFile gives the same bytes back, on every driver here; a missing key throws', async () => {
    expect(storages.map(([driver]) => driver)).toEqual(withoutS3 ? ['local'] : ['local', 's3']);
    for (const [driver, storage] of storages) {
      const key = mediaAssetKey('gen_files', 'image-1.png');
      await putBytes(storage(), key, bytes, 'image/png');
      const out = path.join(dir, `${driver}.png`);
      await getToFile(storage(), key, out);
      expect(fs.readFileSync(out).equals(bytes), driver).toBe(true);
      await expect(
        getToFile(storage(), mediaAssetKey('gen_files', 'nothing.png'), path.join(dir, 'x')),
        driver,
      ).rejects.toThrow();
    }
  });
});
