// The video module (src/video/) on real ffmpeg and ffprobe: what probing reads, the previews and a PNG
// frame, and how a failed run is reported (which tool, why, its stderr).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  extractPreviews,
  ffprobeFor,
  imageToPng,
  probeMediaVideo,
  probeVideo,
  runVideoTool,
  VideoToolError,
} from '../../src/video/index.js';
import { imageSize } from '../../src/sniff.js';
import { testVideo, twoColourImage } from '../support/mediaServer.js';

let dir: string;
const file = (name: string) => path.join(dir, name);

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'video-unit-'));
  fs.writeFileSync(file('clip.mp4'), testVideo(3));
  fs.writeFileSync(file('page.mp4'), '<!doctype html><p>not a video</p>');
  fs.writeFileSync(file('wide.jpg'), twoColourImage(400, 100, 'jpg'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('video module', () => {
  it('ffprobe is the one beside a configured ffmpeg path, else the one on PATH', () => {
    expect(ffprobeFor('/opt/ffmpeg/bin/ffmpeg')).toBe('/opt/ffmpeg/bin/ffprobe');
    expect(ffprobeFor('ffmpeg')).toBe('ffprobe');
  });

  it('probes a video: codec, size, rate, length, frames (counted), bytes', async () => {
    const probed = await probeVideo('ffmpeg', file('clip.mp4'), { countPackets: true });
    expect(probed).toEqual({
      path: file('clip.mp4'),
      codec: 'h264',
      width: 32,
      height: 32,
      fps: 1,
      frames: 3,
      durationSeconds: 3,
      bytes: fs.statSync(file('clip.mp4')).size,
    });
    expect(await probeMediaVideo('ffmpeg', file('clip.mp4'))).toEqual({
      width: 32,
      height: 32,
      durationSeconds: 3,
      codec: 'h264',
    });
  });

  it("a request's file that is no video is a problem naming ffprobe's reason, not an error", async () => {
    const facts = await probeMediaVideo('ffmpeg', file('page.mp4'));
    expect(facts).toMatchObject({ problem: expect.stringMatching(/^ffprobe cannot read it as a video \(.+\)$/) });
    await expect(probeVideo('ffmpeg', file('page.mp4'))).rejects.toMatchObject({
      name: 'VideoToolError',
      tool: 'ffprobe',
      reason: 'exited',
    });
  });

  it('cuts the three previews from one run and an image frame as a PNG within the size asked', async () => {
    const files = { poster: file('poster.jpg'), thumbnail: file('thumbnail.jpg'), spriteSheet: file('sheet.jpg') };
    await extractPreviews('ffmpeg', file('clip.mp4'), 3, files);
    const size = (f: string) => imageSize(fs.readFileSync(f), 'image/jpeg');
    expect(size(files.poster)).toEqual({ width: 32, height: 32 });
    expect(size(files.thumbnail)).toEqual({ width: 32, height: 32 });
    // 5 × 5 tiles 160 px wide.
    expect(size(files.spriteSheet)).toEqual({ width: 800, height: 800 });
    const png = await imageToPng('ffmpeg', file('wide.jpg'), 200);
    expect(imageSize(png, 'image/png')).toEqual({ width: 200, height: 50 });
  });

  it('a failed run says which tool, why and what it wrote to stderr; a missing binary could not start', async () => {
    const failed = await runVideoTool('ffmpeg', 'ffmpeg', [
      '-v',
      'error',
      '-i',
      file('none.mp4'),
      '-f',
      'null',
      '-',
    ]).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(VideoToolError);
    expect(failed).toMatchObject({ tool: 'ffmpeg', reason: 'exited', stderr: expect.stringContaining('none.mp4') });
    expect((failed as Error).message).toMatch(/^ffmpeg exited with code \d+: .*none\.mp4/);
    const missing = await runVideoTool(file('no-such-ffmpeg'), 'ffprobe', ['-version']).catch((err: unknown) => err);
    expect(missing).toMatchObject({ tool: 'ffprobe', reason: 'not_started' });
    const aborted = runVideoTool(
      'ffmpeg',
      'ffmpeg',
      ['-v', 'error', '-re', '-i', file('clip.mp4'), '-f', 'null', '-'],
      { signal: AbortSignal.abort() },
    );
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
  });
});
