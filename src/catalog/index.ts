// The engine and model catalog behind GET /v1/engines: the engines are the registry's
// (src/engines/registry.ts), the models and their base prices are catalog.json's, validated at
// start-up. Prices are kept internally as integer micro-dollars per million tokens; effective prices
// are derived (base × the engine's premium multiplier), never typed by hand.
import fs from 'node:fs';
import { z } from 'zod';
import { allEngines, type EngineModule } from '../engines/index.js';

const usd = z.number().min(0).max(10_000);
const catalogFileSchema = z
  .object({
    $comment: z.string().optional(),
    models: z
      .array(
        z.object({
          id: z.string().min(1).max(100),
          name: z.string().min(1),
          input_per_million_usd: usd,
          output_per_million_usd: usd,
        }),
      )
      .min(1),
  })
  .strict()
  .superRefine((c, ctx) => {
    const ids = c.models.map((m) => m.id);
    if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', message: 'duplicate model id' });
  });

export type CatalogFile = z.infer<typeof catalogFileSchema>;

export type ModelPrice = {
  /** Effective micro-dollars per million tokens (premium included). */
  inputMicrosPerMillion: number;
  outputMicrosPerMillion: number;
};

export type Pricing = {
  input_per_million_usd: number;
  output_per_million_usd: number;
  premium_multiplier: number;
  effective_input_per_million_usd: number;
  effective_output_per_million_usd: number;
};

const toMicros = (usdAmount: number) => Math.round(usdAmount * 1_000_000);

type CatalogEngine = Pick<EngineModule, 'id' | 'name' | 'premiumMultiplier'>;

export class Catalog {
  private readonly prices = new Map<string, ModelPrice>();

  constructor(
    readonly file: CatalogFile,
    readonly engines: readonly CatalogEngine[] = allEngines(),
  ) {
    for (const e of engines) {
      for (const m of file.models) {
        this.prices.set(`${e.id}/${m.id}`, {
          inputMicrosPerMillion: Math.round(toMicros(m.input_per_million_usd) * e.premiumMultiplier),
          outputMicrosPerMillion: Math.round(toMicros(m.output_per_million_usd) * e.premiumMultiplier),
        });
      }
    }
  }

  /** The catalog of the registered engines (call after plug-in engines are registered). */
  static load(filePath = new URL('./catalog.json', import.meta.url)): Catalog {
    const raw = JSON.parse(fs.readFileSync(filePath, 'utf8'));
    const parsed = catalogFileSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`invalid catalog ${String(filePath)}: ${z.prettifyError(parsed.error)}`);
    return new Catalog(parsed.data);
  }

  /** Models offered (on `engine`, when given; every engine offers every model). */
  modelIds(engine?: string): string[] {
    if (engine !== undefined && !this.engines.some((e) => e.id === engine)) return [];
    return this.file.models.map((m) => m.id);
  }

  /** Effective price of a model on an engine, or undefined when the engine does not offer it. */
  price(engine: string, model: string): ModelPrice | undefined {
    return this.prices.get(`${engine}/${model}`);
  }

  /** Cost of a number of tokens in integer micro-dollars (rounded up to the micro-dollar). */
  costMicros(engine: string, model: string, inputTokens: number, outputTokens: number): number {
    const p = this.price(engine, model);
    if (!p) throw new Error(`no price for ${engine}/${model}`);
    return Math.ceil((inputTokens * p.inputMicrosPerMillion + outputTokens * p.outputMicrosPerMillion) / 1_000_000);
  }

  /** The public view of interface section 2.5. */
  toPublic() {
    return {
      engines: this.engines.map((e) => ({
        id: e.id,
        name: e.name,
        supported_models: this.file.models.map((m) => {
          const p = this.price(e.id, m.id)!;
          const pricing: Pricing = {
            input_per_million_usd: m.input_per_million_usd,
            output_per_million_usd: m.output_per_million_usd,
            premium_multiplier: e.premiumMultiplier,
            effective_input_per_million_usd: p.inputMicrosPerMillion / 1_000_000,
            effective_output_per_million_usd: p.outputMicrosPerMillion / 1_000_000,
          };
          return { id: m.id, name: m.name, pricing };
        }),
      })),
    };
  }
}
