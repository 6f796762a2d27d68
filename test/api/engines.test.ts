// GET /v1/engines against interface section 2.5, field by field.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEngine } from '../../src/engines/index.js';
import { api, startApi, type TestApi } from '../support/stack.js';

let stack: TestApi;
beforeAll(async () => {
  stack = await startApi();
});
afterAll(() => stack.close());

const catalogFile = JSON.parse(fs.readFileSync(new URL('../../src/catalog/catalog.json', import.meta.url), 'utf8'));

describe('GET /v1/engines', () => {
  it('lists hyperframes and lottie with the catalog file models, priced with each engine premium', async () => {
    const res = await api(stack.url, '/v1/engines');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['engines']);
    expect(res.body.engines.map((e: any) => e.id)).toEqual(['hyperframes', 'lottie']);

    for (const engine of res.body.engines) {
      expect(Object.keys(engine).sort()).toEqual(['id', 'name', 'supported_models']);
      expect(typeof engine.name).toBe('string');
      expect(engine.supported_models.map((m: any) => m.id)).toEqual(catalogFile.models.map((m: any) => m.id));
      for (const model of engine.supported_models) {
        expect(Object.keys(model).sort()).toEqual(['id', 'name', 'pricing']);
        expect(typeof model.id).toBe('string');
        expect(typeof model.name).toBe('string');
        const p = model.pricing;
        expect(Object.keys(p).sort()).toEqual([
          'effective_input_per_million_usd',
          'effective_output_per_million_usd',
          'input_per_million_usd',
          'output_per_million_usd',
          'premium_multiplier',
        ]);
        for (const v of Object.values(p)) expect(typeof v).toBe('number');
        const m = catalogFile.models.find((x: any) => x.id === model.id);
        expect(p.input_per_million_usd).toBe(m.input_per_million_usd);
        expect(p.output_per_million_usd).toBe(m.output_per_million_usd);
        expect(p.premium_multiplier).toBe(getEngine(engine.id).premiumMultiplier);
        // Effective price = base × premium_multiplier (to the micro-dollar).
        expect(p.effective_input_per_million_usd).toBeCloseTo(p.input_per_million_usd * p.premium_multiplier, 6);
        expect(p.effective_output_per_million_usd).toBeCloseTo(p.output_per_million_usd * p.premium_multiplier, 6);
      }
    }
  });

  it('is public and has a multiplier above 1 somewhere, so the rule is really exercised', async () => {
    const res = await api(stack.url, '/v1/engines');
    const multipliers = res.body.engines.flatMap((e: any) =>
      e.supported_models.map((m: any) => m.pricing.premium_multiplier),
    );
    expect(multipliers.some((m: number) => m !== 1)).toBe(true);
  });
});
