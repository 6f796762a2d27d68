// Records the histories the replay gate (test/workflows/replay.test.ts) replays: representative
// executions of the real workflows with the stub activities of the workflow tests, each written to
// test/histories/<name>.json (the JSON of Temporal's history exports: see historyJson.ts).
//
//   npm run record-histories            # starts its own Temporal dev server
//   TEMPORAL_ADDRESS=host:port npm run record-histories
//   npm run record-histories -- generation-chunked   # only the scenarios named
//
// Re-record only when no execution of the old workflow code can still be running (see README,
// "Changing workflows"); a change that alters the commands of running workflows needs patched().
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApplicationFailure } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import { findTemporalCli } from '../../src/tooling/install.mjs';
import { splitFrames } from '../../src/engines/chunks.js';
import { startDevServer, type DevServer } from '../../src/tooling/temporalDevServer.js';
import { freePort } from '../../src/tooling/ports.js';
import { historyToJson } from './historyJson.js';
import {
  attempt,
  attemptResult,
  emittedEvents,
  hang,
  outcomeOf,
  providerFailure,
  startHarness,
  type Harness,
} from './harness.js';

const HISTORIES_DIR = fileURLToPath(new URL('../histories/', import.meta.url));

const webhook_url = 'https://hooks.example.com/video';

/** Each scenario runs one execution to its end and returns its handle. */
const SCENARIOS: Record<string, (h: Harness) => Promise<WorkflowHandle>> = {
  /** Expansion, composition, render; queued/started/completed events as child workflows. */
  async 'generation-completed'(h) {
    const { handle } = await h.startGeneration({}, { webhook_url, expand_prompt: true });
    await outcomeOf(handle);
    return handle;
  },

  /** An image and a video fetched as assets (fetchMedia), then composed and rendered with them. */
  async 'generation-with-media'(h) {
    const { handle } = await h.startGeneration(
      {},
      {
        webhook_url,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'A launch teaser with our product photo' },
              { type: 'image', url: 'https://media.example.com/product.png' },
              { type: 'video', url: 'https://media.example.com/clip.mp4' },
            ],
          },
        ],
      },
    );
    await outcomeOf(handle);
    return handle;
  },

  /** An image URL answers 404: media_unavailable before any provider call. */
  async 'generation-media-unavailable'(h) {
    const { handle } = await h.startGeneration(
      {
        fetchMedia: async () => {
          throw ApplicationFailure.create({
            type: 'media_unavailable',
            message:
              'The image https://media.example.com/gone.png (image 1 of the request) cannot be used: HTTP 404 Not Found',
            nonRetryable: true,
          });
        },
      },
      {
        webhook_url,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'A teaser' },
              { type: 'image', url: 'https://media.example.com/gone.png' },
            ],
          },
        ],
      },
    );
    await outcomeOf(handle);
    return handle;
  },

  /**
   * Every provider skipped: queued, started, completed events; the started one goes out before the
   * terminal record, which sends the completed one (before issue 40 it went after the record, with
   * the completed one: `.pre-completed-sent-with-record`).
   */
  async 'generation-no-provider'(h) {
    const { handle } = await h.startGeneration(
      {
        planRoute: async () => ({
          attempts: [attempt('p1', 'OPENAI_API_KEY is not set'), attempt('p2', 'does not serve model test-model')],
          repairRounds: 1,
        }),
      },
      { webhook_url },
    );
    await outcomeOf(handle);
    return handle;
  },

  /** A skipped provider, one that times out, one unavailable, then a rejection ends it. No webhook_url. */
  async 'generation-failed-after-fallback'(h) {
    const { handle } = await h.startGeneration({
      planRoute: async () => ({
        attempts: [attempt('p1', 'no API key configured'), attempt('p2'), attempt('p3'), attempt('p4')],
        repairRounds: 1,
      }),
      writeComposition: async (call) => {
        if (call.provider === 'p2') return hang();
        if (call.provider === 'p3')
          throw providerFailure('provider_unavailable', '503 Service Unavailable', {
            input_tokens: 3,
            output_tokens: 0,
          });
        throw providerFailure('provider_rejected', '400 invalid request', { input_tokens: 5, output_tokens: 0 });
      },
    });
    await outcomeOf(handle);
    return handle;
  },

  /** Invalid first draft, repaired once, rendered. */
  async 'generation-repaired'(h) {
    const { handle } = await h.startGeneration(
      {
        validateComposition: async (input) =>
          input.key.endsWith('/1.html')
            ? [{ code: 'no_timeline', message: 'no GSAP timeline', severity: 'error' as const }]
            : [],
      },
      { webhook_url },
    );
    await outcomeOf(handle);
    return handle;
  },

  /** The render fails with a final render_failed. */
  async 'generation-render-failed'(h) {
    const { handle } = await h.startGeneration(
      {
        renderComposition: async () => {
          throw ApplicationFailure.create({
            type: 'render_failed',
            message: 'ffmpeg exited with code 1',
            nonRetryable: true,
          });
        },
      },
      { webhook_url },
    );
    await outcomeOf(handle);
    return handle;
  },

  /** A 10 s video planned as three chunks, rendered at once, joined. */
  async 'generation-chunked'(h) {
    const { handle } = await h.startGeneration(
      { planRender: async () => ({ chunks: splitFrames(300, 3) }) },
      { webhook_url },
    );
    await outcomeOf(handle);
    return handle;
  },

  /** Cancelled while rendering. */
  async 'generation-cancelled'(h) {
    const { handle, trace } = await h.startGeneration({ renderComposition: () => hang() }, { webhook_url });
    await trace.waitFor('renderComposition');
    await handle.cancel();
    await outcomeOf(handle);
    return handle;
  },

  /**
   * The completed event given to the terminal record, whose first attempt failed (503); its delivery
   * workflow carries on from attempt 2 (issue 35).
   */
  async 'generation-completed-sent-with-record'(h) {
    return (await completedWithRecord(h)).generation;
  },

  /**
   * That completed event's delivery workflow: attempt 2 after the schedule's wait, delivered (before
   * issue 40 its input named the record's attempt `attempted`: `.pre-prepared-input`).
   */
  async 'webhook-after-attempt-with-record'(h) {
    return (await completedWithRecord(h)).delivery;
  },

  /**
   * A completed event the terminal record prepared without attempting it (the schedule starts with a wait): its
   * workflow waits, then attempt 1.
   */
  async 'webhook-prepared-with-record'(h) {
    const { handle } = await h.startGeneration(
      { finishGeneration: async (_outcome, event) => event && { plan: { retryScheduleMs: [200, 200] } } },
      { webhook_url },
    );
    await outcomeOf(handle);
    const completed = (await emittedEvents(handle)).find((e) => e.facts.type === 'video.generation.completed')!;
    const delivery = h.client.workflow.getHandle(completed.eventId);
    await delivery.result();
    return delivery;
  },

  /** 500, a throwing attempt, a 503 with Retry-After, then 200: delivered on attempt 4. */
  async 'webhook-retried'(h) {
    const { handle } = await h.startWebhook({
      prepareWebhookEvent: async () => ({ retryScheduleMs: [0, 200, 200, 400, 400] }),
      attemptWebhookDelivery: async (req) => {
        if (req.attempt === 2) throw new Error('worker lost mid-send');
        if (req.attempt === 3) return attemptResult(req, 503, { retryAfterMs: 600 });
        return attemptResult(req, req.attempt === 1 ? 500 : 200);
      },
    });
    await outcomeOf(handle);
    return handle;
  },
};

async function completedWithRecord(h: Harness): Promise<{ generation: WorkflowHandle; delivery: WorkflowHandle }> {
  const { handle } = await h.startGeneration(
    {
      finishGeneration: async (_outcome, event) =>
        event && {
          plan: { retryScheduleMs: [0, 200, 200] },
          result: attemptResult({ eventId: event.eventId, attempt: 1 }, 503),
          status: 'pending',
        },
    },
    { webhook_url },
  );
  await outcomeOf(handle);
  const completed = (await emittedEvents(handle)).find((e) => e.facts.type === 'video.generation.completed')!;
  const delivery = h.client.workflow.getHandle(completed.eventId);
  await delivery.result();
  return { generation: handle, delivery };
}

async function main() {
  const only = process.argv.slice(2);
  const unknown = only.filter((name) => !(name in SCENARIOS));
  if (unknown.length)
    throw new Error(`no scenario ${unknown.join(', ')}; there are ${Object.keys(SCENARIOS).join(', ')}`);
  let server: DevServer | undefined;
  let address = process.env.TEMPORAL_ADDRESS;
  if (!address) {
    const cliPath = findTemporalCli();
    if (!cliPath)
      throw new Error('Temporal CLI not installed: run `npm start` or `npm test` once, or set TEMPORAL_ADDRESS');
    server = await startDevServer({ cliPath, port: await freePort(), uiPort: null });
    address = server.address;
  }
  const h = await startHarness(address);
  try {
    fs.mkdirSync(HISTORIES_DIR, { recursive: true });
    const results = await Promise.all(
      Object.entries(SCENARIOS)
        .filter(([name]) => only.length === 0 || only.includes(name))
        .map(async ([name, run]) => {
          const handle = await run(h);
          const history = await handle.fetchHistory();
          // Failures carry the stub's stack trace (this machine's paths): dropped, replay never reads them.
          const json = historyToJson(history).replace(/"stackTrace":"(?:[^"\\]|\\.)*"/g, '"stackTrace":""');
          const file = path.join(HISTORIES_DIR, `${name}.json`);
          fs.writeFileSync(file, json);
          return `${path.relative(process.cwd(), file)} (${history.events?.length ?? 0} events)`;
        }),
    );
    for (const line of results) console.log(`recorded ${line}`);
  } finally {
    await h.close();
    await server?.stop();
  }
}

await main();
