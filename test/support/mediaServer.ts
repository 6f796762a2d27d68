// A real HTTPS server serving test media (images, videos, errors, redirects, hangs) with the
// self-signed certificate of the webhook receiver (valid for 127.0.0.1, ::1, localhost and
// receiver.test), for the media-URL tests. Every request is counted by path.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { promisify } from 'node:util';
import type { TlsFiles } from '../webhooks/support/receiver.js';

export type MediaAnswer =
  | { status?: number; body: Buffer | string; type?: string; chunked?: boolean; headers?: Record<string, string> }
  | { redirect: string; status?: number }
  | { hang: true };

export type MediaServer = {
  port: number;
  url(pathname: string): string;
  /** Serves `answer` at `pathname` from now on. */
  route(pathname: string, answer: MediaAnswer): void;
  /** Requests received per path. */
  hits: Map<string, number>;
  close(): Promise<void>;
};

export async function startMediaServer(tls: TlsFiles, host = '127.0.0.1'): Promise<MediaServer> {
  const routes = new Map<string, MediaAnswer>();
  const hits = new Map<string, number>();
  const server = https.createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const pathname = (req.url ?? '/').split('?')[0]!;
    hits.set(pathname, (hits.get(pathname) ?? 0) + 1);
    const answer = routes.get(pathname) ?? { status: 404, body: 'not found', type: 'text/plain' };
    if ('hang' in answer) return;
    if ('redirect' in answer) {
      res.writeHead(answer.status ?? 302, { location: answer.redirect }).end();
      return;
    }
    const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body;
    const headers: Record<string, string> = {
      'content-type': answer.type ?? 'application/octet-stream',
      ...answer.headers,
    };
    if (!answer.chunked) headers['content-length'] = String(body.length);
    res.writeHead(answer.status ?? 200, headers);
    // Chunked: written in pieces without a Content-Length, so only counting the bytes can stop it.
    if (answer.chunked) {
      for (let i = 0; i < body.length; i += 256 * 1024) res.write(body.subarray(i, i + 256 * 1024));
      res.end();
    } else {
      res.end(body);
    }
  });
  const sockets = new Set<Duplex>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (pathname) => `https://${host.includes(':') ? `[${host}]` : host}:${port}${pathname}`,
    route: (pathname, answer) => void routes.set(pathname, answer),
    hits,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * A bold two-colour image (PNG unless asked) made by ffmpeg: the top half magenta (#ff00ff), the
 * bottom half green (#00ff00); colours no offline composition uses, easy to find again in a frame.
 */
export function twoColourImage(width = 160, height = 180, format: 'png' | 'jpg' | 'gif' = 'png'): Buffer {
  return ffmpegOutput(format, [
    '-f',
    'lavfi',
    '-i',
    `color=c=0xff00ff:s=${width}x${height / 2}`,
    '-f',
    'lavfi',
    '-i',
    `color=c=0x00ff00:s=${width}x${height / 2}`,
    '-filter_complex',
    'vstack',
    '-frames:v',
    '1',
  ]);
}

/** A small H.264 MP4 of `seconds` (1 fps, 32×32: cheap even at 61 s). */
export function testVideo(seconds: number): Buffer {
  return ffmpegOutput('mp4', [
    '-f',
    'lavfi',
    '-i',
    `color=c=blue:s=32x32:r=1:d=${seconds}`,
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
  ]);
}

function ffmpegOutput(extension: string, args: string[]): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-media-'));
  try {
    const file = path.join(dir, `out.${extension}`);
    execFileSync('ffmpeg', ['-v', 'error', ...args, file], { stdio: 'ignore' });
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Share of the pixels of one frame of a video file (at `seconds`) close to magenta and to green, the
 * test image's two colours (H.264 4:2:0 moves colours a little, edges blend: a generous distance), and
 * of pixels tinted green however dark (the image's green half under a scrim that darkens it for text).
 */
export async function imageColourShares(
  videoFile: string,
  seconds: number,
): Promise<{ magenta: number; green: number; greenTint: number }> {
  const { stdout } = await promisify(execFile)(
    'ffmpeg',
    [
      '-v',
      'error',
      '-ss',
      String(seconds),
      '-i',
      videoFile,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    {
      encoding: 'buffer',
      maxBuffer: 1 << 24,
    },
  );
  const rgb = stdout as unknown as Buffer;
  const near = (i: number, r: number, g: number, b: number) =>
    Math.abs(rgb[i]! - r) + Math.abs(rgb[i + 1]! - g) + Math.abs(rgb[i + 2]! - b) < 90;
  let magenta = 0;
  let green = 0;
  let greenTint = 0;
  for (let i = 0; i + 2 < rgb.length; i += 3) {
    if (near(i, 255, 0, 255)) magenta++;
    else if (near(i, 0, 255, 0)) green++;
    if (rgb[i + 1]! > rgb[i]! + 50 && rgb[i + 1]! > rgb[i + 2]! + 50) greenTint++;
  }
  const pixels = rgb.length / 3;
  return { magenta: magenta / pixels, green: green / pixels, greenTint: greenTint / pixels };
}
