// The orchestration provider registry: which providers exist, how to reach them and which of our
// catalog models each serves under which of its own model ids. Read from a JSON file (the built-in
// providers.json, or PROVIDERS_FILE), validated with zod; API keys come from the environment
// variables the file names, so the file itself holds no secret.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Config } from '../config.js';
import { invalidInput } from '../errors.js';
import type { PlannedAttempt } from '../temporal/contract.js';
import type { ProtocolEntry, ProviderConnection, ServedModel } from './protocol.js';
import { PROTOCOLS, protocolOf } from './protocols.js';

// prompts.ts and types.ts take the media type from here.

export const DEFAULT_PROVIDERS_FILE = fileURLToPath(new URL('./providers.json', import.meta.url));

const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const SLUG_RULE = 'provider slugs are 1-64 lowercase letters, digits, "-" and "_"';
const slug = z.string().regex(SLUG, SLUG_RULE);

export type ProviderEntry = ProtocolEntry & { protocol: string };

const protocolId = z.string().refine((id) => protocolOf(id) !== undefined, {
  error: (issue) => `unknown protocol ${JSON.stringify(issue.input)} (known: ${PROTOCOLS.map((p) => p.id).join(', ')})`,
});

/** An entry: its `protocol` first, then the rest by that protocol's own schema. */
const providerEntry = z
  .looseObject({ protocol: protocolId })
  .transform(({ protocol, ...fields }, ctx): ProviderEntry => {
    const parsed = protocolOf(protocol)!.entry.safeParse(fields);
    // Spread: addIssue takes raw issues, whose type a parsed issue does not match as is.
    for (const issue of parsed.error?.issues ?? []) ctx.addIssue({ ...issue });
    return parsed.success ? { protocol, ...parsed.data } : z.NEVER;
  });

const providersFileSchema = z
  .object({
    $comment: z.string().optional(),
    /** Order tried when a request names none; default: the file's order with `local` providers last. */
    default_order: z.array(slug).min(1).optional(),
    providers: z.record(z.string(), providerEntry).refine((p) => Object.keys(p).length > 0, 'no provider configured'),
  })
  .strict()
  .superRefine((f, ctx) => {
    for (const s of Object.keys(f.providers)) {
      if (!SLUG.test(s)) ctx.addIssue({ code: 'custom', path: ['providers', s], message: `"${s}": ${SLUG_RULE}` });
    }
    for (const s of f.default_order ?? []) {
      if (!(s in f.providers))
        ctx.addIssue({ code: 'custom', path: ['default_order'], message: `unknown provider "${s}"` });
    }
  });
export type ProvidersFile = z.infer<typeof providersFileSchema>;

/** Reads an environment variable by the name the registry gives (config.providers.secret). */
export type SecretReader = (name: string) => string | undefined;

export class ProviderRegistry {
  constructor(readonly file: ProvidersFile) {}

  static parse(raw: unknown, source = 'providers file'): ProviderRegistry {
    const parsed = providersFileSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`invalid ${source}: ${z.prettifyError(parsed.error)}`);
    return new ProviderRegistry(parsed.data);
  }

  slugs(): string[] {
    return Object.keys(this.file.providers);
  }

  get(slug: string): ProviderEntry | undefined {
    return Object.hasOwn(this.file.providers, slug) ? this.file.providers[slug] : undefined;
  }

  defaultOrder(): string[] {
    if (this.file.default_order) return this.file.default_order;
    const slugs = this.slugs();
    const last = (s: string) => protocolOf(this.file.providers[s]!.protocol)!.triedLast === true;
    return [...slugs.filter((s) => !last(s)), ...slugs.filter(last)];
  }

  /** How the provider serves one of our models, or undefined when it does not. */
  servedModel(slug: string, model: string): ServedModel | undefined {
    const entry = this.get(slug);
    if (!entry) return undefined;
    if (entry.models === '*') return { id: model, input: [] };
    return Object.hasOwn(entry.models, model) ? entry.models[model] : undefined;
  }

  /** Why the provider cannot serve this model now, or null when it can. */
  unusableReason(slug: string, model: string, secret: SecretReader): string | null {
    const entry = this.get(slug);
    if (!entry) return 'not configured';
    if (!this.servedModel(slug, model)) return `does not serve model ${model}`;
    // Fixed words: the plan's reasons reach the tenant (the variable's name is the operator's business).
    if (entry.api_key_env && !secret(entry.api_key_env)) return NO_KEY;
    return null;
  }

  /**
   * The providers to try, in order: the request's `provider.order`, else the default order. Every
   * provider stays in the plan; one that cannot serve the request carries the reason it is skipped.
   */
  plan(order: string[] | null, model: string, secret: SecretReader): PlannedAttempt[] {
    return [...new Set(order ?? this.defaultOrder())].map((slug) => ({
      provider: slug,
      skipped: this.unusableReason(slug, model, secret),
      timeoutMs: Math.round((this.get(slug)?.timeout_seconds ?? 0) * 1000),
    }));
  }

  /** The provider a request will try first: the first usable one of its plan, else the plan's head. */
  firstProvider(order: string[] | null, model: string, secret: SecretReader): string {
    const plan = this.plan(order, model, secret);
    return (plan.find((attempt) => !attempt.skipped) ?? plan[0]!).provider;
  }

  connect(slug: string, model: string, secret: SecretReader): ProviderConnection<ProviderEntry> {
    const reason = this.unusableReason(slug, model, secret);
    if (reason === NO_KEY)
      throw new Error(`provider ${slug} cannot be used: ${this.get(slug)!.api_key_env} is not set`);
    if (reason) throw new Error(`provider ${slug} cannot be used: ${reason}`);
    const entry = this.get(slug)!;
    const apiKey = entry.api_key_env ? secret(entry.api_key_env)! : null;
    return { slug, entry, model: this.servedModel(slug, model)!, apiKey };
  }
}

/** Why a provider with an api_key_env whose variable is empty is skipped. */
export const NO_KEY = 'no API key is configured for it';

const loaded = new Map<string, ProviderRegistry>();

/** The registry of a file, read and validated once per process. */
export function loadProviderRegistry(file = DEFAULT_PROVIDERS_FILE): ProviderRegistry {
  let registry = loaded.get(file);
  if (!registry) {
    let raw: unknown;
    try {
      raw = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (err) {
      throw new Error(`cannot read providers file ${file}: ${(err as Error).message}`, { cause: err });
    }
    registry = ProviderRegistry.parse(raw, `providers file ${file}`);
    loaded.set(file, registry);
  }
  return registry;
}

export const registryOf = (config: Config) => loadProviderRegistry(config.providers.file);

/**
 * Request-time check of `provider.order` (called by the API's request translation): every slug is
 * configured, and at least one of them serves the model. Whether a provider's key is set is the
 * workers' business (their environment holds the secrets), so that is checked when routing.
 */
export function assertProviderOrder(registry: ProviderRegistry, order: string[], model: string): void {
  const unknown = order.filter((s) => !registry.get(s));
  if (unknown.length > 0) {
    throw invalidInput(
      `provider.order: unknown provider ${unknown.map((s) => `"${s}"`).join(', ')}; ` +
        `configured providers: ${registry.slugs().join(', ')}`,
      'provider.order',
    );
  }
  if (!order.some((s) => registry.servedModel(s, model))) {
    throw invalidInput(`provider.order: none of ${order.join(', ')} serves model ${model}`, 'provider.order');
  }
}
