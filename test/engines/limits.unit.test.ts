// Canvas resolution and the engine limits: every limit has a test.
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import {
  checkRenderOptions,
  DEFAULT_FPS,
  durationFinding,
  MAX_CANVAS_SIDE,
  MAX_DURATION_SECONDS,
  MAX_FPS,
  MAX_FRAMES,
  MAX_SOURCE_BYTES,
  MIN_CANVAS_SIDE,
  resolveCanvas,
  RenderError,
  sourceSizeFinding,
} from '../../src/engines/index.js';

function domainError(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error('expected a DomainError');
}

describe('resolveCanvas', () => {
  it('defaults to 1080x1920', () => {
    expect(resolveCanvas({})).toEqual({ width: 1080, height: 1920 });
  });

  it('uses width and height as given, ignoring a valid aspect_ratio', () => {
    expect(resolveCanvas({ width: 1920, height: 1080, aspect_ratio: '9:16' })).toEqual({ width: 1920, height: 1080 });
  });

  it('fills a missing side with its default when there is no aspect_ratio', () => {
    expect(resolveCanvas({ width: 720 })).toEqual({ width: 720, height: 1920 });
    expect(resolveCanvas({ height: 1280 })).toEqual({ width: 1080, height: 1280 });
  });

  it('derives the missing side from aspect_ratio', () => {
    expect(resolveCanvas({ width: 720, aspect_ratio: '9:16' })).toEqual({ width: 720, height: 1280 });
    expect(resolveCanvas({ height: 1080, aspect_ratio: '16:9' })).toEqual({ width: 1920, height: 1080 });
  });

  it('keeps the long side at 1920 when only aspect_ratio is given', () => {
    expect(resolveCanvas({ aspect_ratio: '16:9' })).toEqual({ width: 1920, height: 1080 });
    expect(resolveCanvas({ aspect_ratio: '9:16' })).toEqual({ width: 1080, height: 1920 });
    expect(resolveCanvas({ aspect_ratio: '1:1' })).toEqual({ width: 1920, height: 1920 });
    expect(resolveCanvas({ aspect_ratio: '4:5' })).toEqual({ width: 1536, height: 1920 });
    expect(resolveCanvas({ aspect_ratio: ' 2.39 : 1 ' })).toEqual({ width: 1920, height: 804 });
  });

  it('rounds every side to an even number (H.264 yuv420p)', () => {
    expect(resolveCanvas({ width: 721, height: 1279 })).toEqual({ width: 722, height: 1280 });
    expect(resolveCanvas({ width: 1000, aspect_ratio: '3:7' })).toEqual({ width: 1000, height: 2334 });
  });

  it(`rejects sides outside ${MIN_CANVAS_SIDE}..${MAX_CANVAS_SIDE} naming the field`, () => {
    expect(domainError(() => resolveCanvas({ width: MIN_CANVAS_SIDE - 1 }))).toMatchObject({
      kind: 'invalid_input',
      param: 'width',
    });
    expect(domainError(() => resolveCanvas({ height: MAX_CANVAS_SIDE + 1 }))).toMatchObject({
      kind: 'invalid_input',
      param: 'height',
    });
    expect(resolveCanvas({ width: MIN_CANVAS_SIDE, height: MAX_CANVAS_SIDE })).toEqual({ width: 16, height: 3840 });
  });

  it('rejects non-integer sides', () => {
    expect(domainError(() => resolveCanvas({ width: 1080.5 }))).toMatchObject({
      kind: 'invalid_input',
      param: 'width',
      code: 'invalid_request',
    });
  });

  it('rejects a malformed aspect_ratio, naming the field as the request shape spells it', () => {
    for (const bad of ['16x9', '0:1', '16:', '-1:2', 'wide']) {
      expect(domainError(() => resolveCanvas({ aspect_ratio: bad }))).toMatchObject({
        kind: 'invalid_input',
        param: 'aspect_ratio',
      });
    }
    expect(domainError(() => resolveCanvas({ aspect_ratio: 'x' }, 'aspectRatio'))).toMatchObject({
      param: 'aspectRatio',
    });
  });

  it('rejects an aspect_ratio that derives a side outside the limits', () => {
    expect(domainError(() => resolveCanvas({ width: 3000, aspect_ratio: '1:2' }))).toMatchObject({
      kind: 'invalid_input',
      param: 'aspect_ratio',
    });
    expect(domainError(() => resolveCanvas({ aspect_ratio: '1000:1' }))).toMatchObject({ param: 'aspect_ratio' });
  });
});

describe('render option limits', () => {
  const code = (fn: () => void) => {
    try {
      fn();
      return 'ok';
    } catch (err) {
      return (err as RenderError).code;
    }
  };

  it('accepts even sides within the limits and integer fps 1..60', () => {
    expect(code(() => checkRenderOptions({ width: 16, height: 3840, fps: MAX_FPS }))).toBe('ok');
    expect(code(() => checkRenderOptions({ width: 1080, height: 1920 }))).toBe('ok');
    expect(DEFAULT_FPS).toBe(30);
  });

  it('rejects odd, too small and too large sides', () => {
    expect(code(() => checkRenderOptions({ width: 1081, height: 1920 }))).toBe('invalid_render_options');
    expect(code(() => checkRenderOptions({ width: 14, height: 1920 }))).toBe('invalid_render_options');
    expect(code(() => checkRenderOptions({ width: 1080, height: 3842 }))).toBe('invalid_render_options');
  });

  it('rejects fps outside 1..60 or fractional', () => {
    expect(code(() => checkRenderOptions({ width: 360, height: 640, fps: 61 }))).toBe('invalid_render_options');
    expect(code(() => checkRenderOptions({ width: 360, height: 640, fps: 0 }))).toBe('invalid_render_options');
    expect(code(() => checkRenderOptions({ width: 360, height: 640, fps: 29.97 }))).toBe('invalid_render_options');
  });

  it(`limits duration to ${MAX_DURATION_SECONDS} s and ${MAX_FRAMES} frames`, () => {
    expect(durationFinding(MAX_DURATION_SECONDS, MAX_FPS)).toBeUndefined();
    expect(durationFinding(MAX_DURATION_SECONDS + 0.5, 30)?.code).toBe('duration_too_long');
    expect(durationFinding(0, 30)?.code).toBe('empty_duration');
    expect(MAX_FRAMES).toBe(3600);
  });

  it(`limits the source to ${MAX_SOURCE_BYTES} bytes of UTF-8`, () => {
    expect(sourceSizeFinding('x'.repeat(MAX_SOURCE_BYTES))).toBeUndefined();
    expect(sourceSizeFinding('x'.repeat(MAX_SOURCE_BYTES + 1))?.code).toBe('source_too_large');
    expect(sourceSizeFinding('é'.repeat(MAX_SOURCE_BYTES / 2 + 1))?.code).toBe('source_too_large'); // 2 bytes each
  });
});
