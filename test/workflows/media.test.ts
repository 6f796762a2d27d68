// The generation workflow's media step with stub activities (test/workflows/harness.ts): fetchMedia
// runs after markStarted and before any provider call, only when the request has image or video
// parts; its assets reach the composition calls, validation and the render (with their storage keys);
// unusable media fail the generation with media_unavailable at once, network trouble after 3 attempts.
import { ApplicationFailure, Context } from '@temporalio/activity';
import { afterAll, beforeAll, describe, inject, test } from 'vitest';
import type { ContentPart, GenerationRequest } from '../../src/shared.js';
import { mediaAssetKey } from '../../src/storage/keys.js';
import { emittedEvents, outcomeOf, startHarness, stubAsset, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(inject('temporalAddress'));
});
afterAll(async () => {
  await h?.close();
});

const withMedia = (...media: ContentPart[]): Partial<GenerationRequest> => ({
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'A launch teaser' }, media[0]!] },
    { role: 'user', content: [{ type: 'text', text: 'and more' }, ...media.slice(1)] },
  ],
});
const image = (url: string): ContentPart => ({ type: 'image', url });
const video = (url: string): ContentPart => ({ type: 'video', url });

const unavailable = (message: string, retryable = false) =>
  ApplicationFailure.create({ type: 'media_unavailable', message, nonRetryable: !retryable });

describe.concurrent('media step', () => {
  test(
    'parts numbered per kind are fetched once, before the providers; the assets reach composition, ' +
      'validation and render',
    async ({ expect }) => {
      const { id, handle, trace } = await h.startGeneration(
        {},
        {
          ...withMedia(
            image('https://media.example.com/a.png'),
            video('https://media.example.com/b.mp4'),
            image('asset:image-2.jpg'),
          ),
          expand_prompt: true,
        },
      );
      expect(await outcomeOf(handle)).toBe('completed');
      const order = trace.calls.filter((c) => !('event' in c)).map((c) => c.activity);
      expect(order.slice(0, 3)).toEqual(['markStarted', 'fetchMedia', 'planRoute']);
      expect(trace.inputs('fetchMedia')).toEqual([
        {
          generationId: id,
          parts: [
            { kind: 'image', number: 1, url: 'https://media.example.com/a.png' },
            { kind: 'video', number: 1, url: 'https://media.example.com/b.mp4' },
            { kind: 'image', number: 2, url: 'asset:image-2.jpg' },
          ],
        },
      ]);
      const assets = trace.inputs('fetchMedia')[0]!.parts.map(stubAsset);
      expect(trace.inputs('expandPrompt')[0]!.assets).toEqual(assets);
      expect(trace.inputs('writeComposition')[0]!.assets).toEqual(assets);
      expect(trace.inputs('validateComposition')[0]!.assets).toEqual(assets);
      expect(trace.inputs('renderComposition')[0]!.assets).toEqual(
        assets.map((a) => ({ ...a, key: mediaAssetKey(id, a.name) })),
      );
    },
  );

  test('a request without media runs no fetchMedia; every step gets no assets', async ({ expect }) => {
    const { handle, trace } = await h.startGeneration();
    expect(await outcomeOf(handle)).toBe('completed');
    expect(trace.inputs('fetchMedia')).toEqual([]);
    expect(trace.inputs('writeComposition')[0]!.assets).toEqual([]);
    expect(trace.inputs('validateComposition')[0]!.assets).toEqual([]);
    expect(trace.inputs('renderComposition')[0]!.assets).toEqual([]);
  });

  test(
    'unusable media (non-retryable): failed with media_unavailable after one attempt, no provider called, ' +
      'nothing billed',
    async ({ expect }) => {
      const message =
        'The image https://media.example.com/gone.png (image 1 of the request) cannot be used: HTTP 404 Not Found';
      const { handle, trace } = await h.startGeneration(
        {
          fetchMedia: async () => {
            throw unavailable(message);
          },
        },
        { ...withMedia(image('https://media.example.com/gone.png')), webhook_url: 'https://hooks.example.com/video' },
      );
      expect(await outcomeOf(handle)).toBe('failed');
      expect(trace.inputs('fetchMedia')).toHaveLength(1);
      expect(trace.inputs('planRoute')).toEqual([]);
      expect(trace.outcome).toMatchObject({
        status: 'failed',
        provider: null,
        usage: null,
        rendered: null,
        error: { code: 'media_unavailable', message },
      });
      const events = await emittedEvents(handle);
      // It reached in_progress, so started comes before completed, though no provider was called.
      expect(events.map((e) => e.facts.type)).toEqual([
        'video.generation.queued',
        'video.generation.started',
        'video.generation.completed',
      ]);
      expect(events[1]!.facts.provider).toBe('p1');
      expect(events[2]!.facts).toMatchObject({ status: 'failed', errorMessage: message });
    },
  );

  test('network trouble (retryable) is tried 3 times, then fails with media_unavailable', async ({ expect }) => {
    const { handle, trace } = await h.startGeneration(
      {
        fetchMedia: async () => {
          throw unavailable(`connect ECONNREFUSED (attempt ${Context.current().info.attempt})`, true);
        },
      },
      withMedia(image('https://media.example.com/a.png')),
    );
    expect(await outcomeOf(handle)).toBe('failed');
    expect(trace.calls.filter((c) => c.activity === 'fetchMedia').map((c) => c.attempt)).toEqual([1, 2, 3]);
    expect(trace.outcome.error).toEqual({ code: 'media_unavailable', message: 'connect ECONNREFUSED (attempt 3)' });
  });

  test('a network failure followed by success completes', async ({ expect }) => {
    const { handle, trace } = await h.startGeneration(
      {
        fetchMedia: async (call) => {
          if (Context.current().info.attempt === 1) throw unavailable('socket hang up', true);
          return call.parts.map(stubAsset);
        },
      },
      withMedia(image('https://media.example.com/a.png')),
    );
    expect(await outcomeOf(handle)).toBe('completed');
    expect(trace.inputs('fetchMedia')).toHaveLength(2);
    expect(trace.inputs('renderComposition')[0]!.assets.map((a) => a.name)).toEqual(['image-1.png']);
  });
});
