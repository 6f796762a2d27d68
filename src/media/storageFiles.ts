// Binary media in and out of storage. The Storage interface moves files in (`put`) and texts both
// ways; media assets also come back out as files (the fetch step reads stored data: URL images, the
// render copies every asset into its work directory), by driver here.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { LocalStorage, type Storage } from '../storage/index.js';

/** Stores bytes under `key` (through a temporary file: the interface stores files). */
export async function putBytes(storage: Storage, key: string, bytes: Uint8Array, contentType: string): Promise<void> {
  const tmp = path.join(os.tmpdir(), `media-upload-${crypto.randomBytes(8).toString('hex')}`);
  try {
    await fs.promises.writeFile(tmp, bytes, { mode: 0o600 });
    await storage.put(key, tmp, contentType);
  } finally {
    await fs.promises.rm(tmp, { force: true });
  }
}

/** Writes the object stored under `key` to `dest`. Throws when there is none. */
export async function getToFile(storage: Storage, key: string, dest: string): Promise<void> {
  if (storage instanceof LocalStorage) {
    const stored = await storage.stat(key);
    if (!stored) throw new Error(`stored media ${key} is missing`);
    await fs.promises.copyFile(stored.path, dest);
    return;
  }
  // S3: the object's presigned GET URL (the bucket the driver itself writes to; never a user's URL).
  const { url } = await storage.url(key, { ttlSeconds: 300 });
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`stored media ${key} could not be read (HTTP ${res.status})`);
  await pipeline(Readable.fromWeb(res.body as WebReadableStream), fs.createWriteStream(dest));
}
