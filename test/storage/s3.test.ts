// S3 storage against a real S3-compatible server on this machine: gofakes3, built once from the Go
// module proxy into the tools cache (outside the checkout). Skipped, saying why, only when it
// cannot be built here.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppState } from '../../src/http/context.js';
import { mediaRoutes } from '../../src/api/media/routes.js';
import { errorMiddleware } from '../../src/http/errors.js';
import { loadConfig } from '../../src/config.js';
import { gofakes3 } from '../../src/tooling/install.mjs';
import { startS3Server, type S3Server } from '../../src/tooling/s3Server.js';
import { createStorage, S3Storage, type Storage } from '../../src/storage/index.js';
import { freePort } from '../../src/tooling/ports.js';
import { skipWithout } from '../support/tools.js';

const BUCKET = 'videos';

const server = gofakes3({ build: false });

describe.skipIf(skipWithout('the S3 storage tests (test/storage/s3)', 'gofakes3 (Go-built S3 server)'))(
  'S3 storage (gofakes3)',
  () => {
    let s3: S3Server;
    let storage: Storage;
    let dir: string;
    const video = crypto.randomBytes(50_000);

    beforeAll(async () => {
      s3 = await startS3Server((server as { bin: { gofakes3: string } }).bin.gofakes3, {
        port: await freePort(),
        bucket: BUCKET,
      });
      storage = createStorage(loadConfig({ ...s3.env, MEDIA_URL_TTL_SECONDS: '600' }));
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3-test-'));
    });

    afterAll(async () => {
      await s3?.stop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('is chosen by STORAGE_DRIVER=s3', () => {
      expect(storage).toBeInstanceOf(S3Storage);
      expect(storage.driver).toBe('s3');
    });

    it('uploads a file and serves it at a presigned URL with its content type and byte ranges', async () => {
      const file = path.join(dir, 'video.mp4');
      fs.writeFileSync(file, video);
      await storage.put('generations/gen_s3/video.mp4', file, 'video/mp4');

      const now = Math.floor(Date.now() / 1000);
      const { url, expires_at } = await storage.url('generations/gen_s3/video.mp4');
      expect(expires_at - now).toBeGreaterThanOrEqual(599);
      expect(expires_at - now).toBeLessThanOrEqual(601);
      expect(url).toContain('X-Amz-Signature=');
      expect(url).toContain('X-Amz-Expires=600');

      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('video/mp4');
      expect(res.headers.get('content-disposition')).toBe('inline; filename="gen_s3-video.mp4"');
      expect(Buffer.from(await res.arrayBuffer())).toEqual(video);

      const part = await fetch(url, { headers: { Range: 'bytes=100-199' } });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer())).toEqual(video.subarray(100, 200));
    });

    it('stores and reads back texts (compositions)', async () => {
      const json = '{"v":"5.7.0","nm":"日本語 ✓"}';
      await storage.putText('generations/gen_s3/compositions/1.json', json, 'application/json');
      expect(await storage.getText('generations/gen_s3/compositions/1.json')).toBe(json);
      const res = await fetch((await storage.url('generations/gen_s3/compositions/1.json')).url);
      expect(res.headers.get('content-type')).toBe('application/json');
      // An artifact from the bucket (another origin) is a download, as from the API's media route.
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="gen_s3-1.json"');
      await expect(storage.getText('generations/gen_s3/compositions/2.json')).rejects.toThrow();
    });

    it('deletes an object (a rendered chunk once joined); deleting nothing is no error', async () => {
      await storage.putText('generations/gen_s3/chunks/0.mp4', 'chunk', 'video/mp4');
      await storage.delete('generations/gen_s3/chunks/0.mp4');
      await expect(storage.getText('generations/gen_s3/chunks/0.mp4')).rejects.toThrow();
      await storage.delete('generations/gen_s3/chunks/0.mp4');
    });

    it('signs URLs for S3_PUBLIC_ENDPOINT when clients reach the store by another name than the service', async () => {
      const publicEndpoint = s3.endpoint.replace('127.0.0.1', 'localhost');
      const behindDocker = createStorage(loadConfig({ ...s3.env, S3_PUBLIC_ENDPOINT: publicEndpoint }));
      const file = path.join(dir, 'public.mp4');
      fs.writeFileSync(file, video);
      // Uploads go to S3_ENDPOINT; the URL names the public host, and the object is there.
      await behindDocker.put('generations/gen_public/video.mp4', file, 'video/mp4');
      const { url } = await behindDocker.url('generations/gen_public/video.mp4');
      expect(url.startsWith(`${publicEndpoint}/${BUCKET}/generations/gen_public/video.mp4?`)).toBe(true);
      expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toBe('host');
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(video);
    });

    it('leaves the API media route unused (404): URLs point at the bucket', async () => {
      const app = new Koa<AppState>();
      app.use(errorMiddleware());
      const router = mediaRoutes({ storage });
      app.use(router.routes());
      const srv = app.listen(0, '127.0.0.1');
      await new Promise((r) => srv.once('listening', r));
      const { port } = srv.address() as net.AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/media/generations/gen_s3/video.mp4?expires=1&sig=x`);
      srv.close();
      expect(res.status).toBe(404);
    });
  },
);
