// Replay gate: every history in test/histories/ (recorded by `npm run record-histories`, or exported
// from a real deployment in the same JSON format) is replayed against the current workflow code
// (workflows/index.ts, bundled as the worker bundles it). A change to the workflows that alters the
// commands an already-recorded execution issued fails here with Temporal's non-determinism error:
// guard it with patched() (README, "Changing workflows").
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type ReplayResult } from '@temporalio/worker';
import { beforeAll, describe, expect, test } from 'vitest';
import { installQuietRuntime, WORKFLOWS_PATH } from './harness.js';
import { historyFromJson } from './historyJson.js';

const HISTORIES_DIR = fileURLToPath(new URL('../histories/', import.meta.url));
const files = fs
  .readdirSync(HISTORIES_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();
const results = new Map<string, ReplayResult>();

beforeAll(async () => {
  installQuietRuntime();
  const histories = files.map((file) => ({
    workflowId: file.replace(/\.json$/, ''),
    history: historyFromJson(JSON.parse(fs.readFileSync(path.join(HISTORIES_DIR, file), 'utf8'))),
  }));
  // One replay worker, one bundle, every history.
  for await (const result of Worker.runReplayHistories(
    { workflowsPath: WORKFLOWS_PATH, replayName: 'replay-gate' },
    histories,
  )) {
    results.set(result.workflowId, result);
  }
});

test('recorded histories are there (completed, failed, cancelled, repaired, webhook retried)', () => {
  expect(files.length).toBeGreaterThanOrEqual(5);
});

describe('replay of recorded histories', () => {
  test.each(files)('%s replays deterministically', (file) => {
    const result = results.get(file.replace(/\.json$/, ''));
    expect(result, `${file} was not replayed`).toBeDefined();
    const error = result!.error;
    expect(error ? `${error.name}: ${error.message}` : null).toBeNull();
  });
});
