// Helpers of the usage and money tests: generation rows written through the real data-access
// functions (admission, then the workflow's charging step), and prices computed independently from
// the catalog file and the engine's premium (effective price = base × premium multiplier; cost rounded
// up to the micro-dollar).
import fs from 'node:fs';
import { expect } from 'vitest';
import type { Catalog } from '../../src/catalog/index.js';
import { getEngine } from '../../src/engines/index.js';
import { finishGeneration, admitGeneration, markGenerationStarted } from '../../src/db/generations.js';
import { MICROS_PER_CENT } from '../../src/db/organizations.js';
import type { Db } from '../../src/db/pool.js';
import { newId } from '../../src/ids.js';
import type { EngineId, TokenUsage } from '../../src/shared.js';
import { compositionKey, videoKey } from '../../src/storage/keys.js';
import type { GenerationOutcome } from '../../src/temporal/contract.js';
import { generationRequest } from '../support/fixtures.js';
import { api } from '../support/stack.js';

type CatalogFile = { models: Array<{ id: string; input_per_million_usd: number; output_per_million_usd: number }> };
const catalogFile: CatalogFile = JSON.parse(
  fs.readFileSync(new URL('../../src/catalog/catalog.json', import.meta.url), 'utf8'),
);

/** Micro-dollars for the tokens, from the catalog file's dollars per million tokens. */
export function expectedCostMicros(engine: string, model: string, usage: TokenUsage | null): number {
  if (!usage) return 0;
  const multiplier = getEngine(engine).premiumMultiplier;
  const m = catalogFile.models.find((x) => x.id === model)!;
  // USD per million tokens = micro-dollars per token; effective price in whole micro-dollars per million.
  const perMillion = (usd: number) => Math.round(usd * 1_000_000 * multiplier);
  const total =
    usage.input_tokens * perMillion(m.input_per_million_usd) +
    usage.output_tokens * perMillion(m.output_per_million_usd);
  return Math.ceil(total / 1_000_000);
}

export type Fixture = {
  engine: EngineId;
  model: string;
  status: 'queued' | GenerationOutcome['status'];
  usage?: TokenUsage | null;
  durationSeconds?: number;
  latencyMs?: number;
  createdAt: Date;
};

export function outcome(
  generationId: string,
  status: GenerationOutcome['status'],
  usage: TokenUsage | null,
  durationSeconds = 0,
): GenerationOutcome {
  return {
    generationId,
    status,
    provider: usage ? 'local' : null,
    usage,
    rendered:
      status === 'completed'
        ? {
            video: { key: videoKey(generationId), content_type: 'video/mp4' },
            artifact: { key: compositionKey(generationId, 1, 'json'), content_type: 'application/json' },
            duration_seconds: durationSeconds,
          }
        : null,
    error:
      status === 'completed'
        ? null
        : { code: status === 'cancelled' ? 'cancelled' : 'provider_error', message: status },
  };
}

/**
 * A generation of the organization as the workflow would leave it: admitted, started, finished and
 * charged by finishGeneration; then dated to `createdAt` (latency kept as given).
 */
export async function addGeneration(
  db: Db,
  catalog: Catalog,
  org: { orgId: string; keyId: string },
  f: Fixture,
): Promise<string> {
  const id = newId('gen');
  const admission = await admitGeneration(db, {
    id,
    organizationId: org.orgId,
    apiKeyId: org.keyId,
    request: generationRequest(f.engine, f.model),
    app: { name: null, referer: null, title: null },
    holdMicros: 0,
  });
  if (!admission.admitted) throw new Error('fixture generation not admitted: no credit');
  if (f.status !== 'queued') {
    await markGenerationStarted(db, id);
    await finishGeneration(db, catalog, outcome(id, f.status, f.usage ?? null, f.durationSeconds));
  }
  await db.query(
    `UPDATE generations SET created_at = $2::timestamptz,
       latency_ms = CASE WHEN completed_at IS NULL THEN NULL ELSE $3::int END,
       completed_at = CASE WHEN completed_at IS NULL THEN NULL
                           ELSE $2::timestamptz + make_interval(secs => $3::int / 1000.0) END
     WHERE id = $1`,
    [id, f.createdAt, f.latencyMs ?? 1000],
  );
  return id;
}

/**
 * An organization's money once all its generations have ended: nothing held, and the balance is the
 * initial one minus the exact cost of every generation (tokens as recorded, priced from the catalog
 * file), to the micro-dollar, as GET /v1/usage reports it.
 */
export async function expectSettled(
  stack: { url: string; db: Db },
  key: string,
  organizationId: string,
  initialCents: number,
): Promise<void> {
  const { rows } = await stack.db.query(
    'SELECT engine, model, status, input_tokens, output_tokens FROM generations WHERE organization_id = $1',
    [organizationId],
  );
  expect(rows.every((r) => ['completed', 'failed', 'cancelled'].includes(r.status))).toBe(true);
  const exact = rows.reduce(
    (sum, r) =>
      sum +
      expectedCostMicros(
        r.engine,
        r.model,
        r.input_tokens === null ? null : { input_tokens: r.input_tokens, output_tokens: r.output_tokens },
      ),
    0,
  );
  const usage = await api(stack.url, '/v1/usage', { key });
  expect(usage.body.credit_held).toBe(0);
  expect(Math.round(usage.body.credit_balance * MICROS_PER_CENT)).toBe(initialCents * MICROS_PER_CENT - exact);
}
