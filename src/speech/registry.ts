// The speech provider registry: which speech providers exist and how to reach them. Read from a JSON
// file (the built-in speech-providers.json, or SPEECH_PROVIDERS_FILE), validated with zod; API keys come
// from the environment variables the file names, as for the orchestration providers (src/providers/).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { SpeechError, type SpeechAdapter, type SpeechEntry, type Utterance } from './protocol.js';
import { SPEECH_PROTOCOLS, speechProtocolOf } from './protocols.js';

export const DEFAULT_SPEECH_PROVIDERS_FILE = fileURLToPath(new URL('./speech-providers.json', import.meta.url));

const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/;

type Entry = SpeechEntry & { protocol: string };

const providerEntry = z.looseObject({ protocol: z.string() }).transform(({ protocol, ...fields }, ctx): Entry => {
  const p = speechProtocolOf(protocol);
  if (!p) {
    const known = SPEECH_PROTOCOLS.map((x) => x.id).join(', ');
    ctx.addIssue({ code: 'custom', message: `unknown protocol "${protocol}" (known: ${known})` });
    return z.NEVER;
  }
  const parsed = p.entry.safeParse(fields);
  for (const issue of parsed.error?.issues ?? []) ctx.addIssue({ ...issue });
  return parsed.success ? { protocol, ...parsed.data } : z.NEVER;
});

const fileSchema = z
  .object({
    $comment: z.string().optional(),
    default_order: z.array(z.string().regex(SLUG)).min(1).optional(),
    providers: z.record(z.string().regex(SLUG), providerEntry).refine((p) => Object.keys(p).length > 0, 'no provider'),
  })
  .strict()
  .superRefine((f, ctx) => {
    for (const s of f.default_order ?? [])
      if (!(s in f.providers)) ctx.addIssue({ code: 'custom', path: ['default_order'], message: `unknown "${s}"` });
  });

type SecretReader = (name: string) => string | undefined;

/** One provider of the order: tried, or skipped for the reason given. */
export type SpeechAttempt = { provider: string; skipped: string | null };

export class SpeechRegistry {
  constructor(readonly file: z.infer<typeof fileSchema>) {}

  get(slug: string): Entry | undefined {
    return Object.hasOwn(this.file.providers, slug) ? this.file.providers[slug] : undefined;
  }

  /** The providers to try, in order; one without its key carries the reason it is skipped. */
  plan(secret: SecretReader): SpeechAttempt[] {
    const slugs = Object.keys(this.file.providers);
    const last = (s: string) => speechProtocolOf(this.file.providers[s]!.protocol)!.triedLast === true;
    const order = this.file.default_order ?? [...slugs.filter((s) => !last(s)), ...slugs.filter(last)];
    return order.map((provider) => {
      const env = this.get(provider)!.api_key_env;
      return { provider, skipped: env && !secret(env) ? `${env} is not set` : null };
    });
  }

  connect(slug: string, secret: SecretReader): SpeechAdapter {
    const entry = this.get(slug)!;
    const key = entry.api_key_env ? (secret(entry.api_key_env) ?? null) : null;
    return speechProtocolOf(entry.protocol)!.connect(entry, key);
  }
}

const loaded = new Map<string, SpeechRegistry>();

/** The registry of a file, read and validated once per process. */
export function loadSpeechRegistry(file = DEFAULT_SPEECH_PROVIDERS_FILE): SpeechRegistry {
  let registry = loaded.get(file);
  if (!registry) {
    const parsed = fileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (!parsed.success) throw new Error(`invalid speech providers file ${file}: ${z.prettifyError(parsed.error)}`);
    registry = new SpeechRegistry(parsed.data);
    loaded.set(file, registry);
  }
  return registry;
}

/**
 * Says `utterance` with the first provider of the order that can: a provider that fails hands over to
 * the next. Returns who spoke; throws SpeechError listing every provider's reason when none could.
 */
export async function speakInOrder(
  registry: SpeechRegistry,
  secret: SecretReader,
  utterance: Utterance,
): Promise<{ provider: string; failures: string[] }> {
  const failures: string[] = [];
  for (const attempt of registry.plan(secret)) {
    if (attempt.skipped) {
      failures.push(`${attempt.provider}: skipped, ${attempt.skipped}`);
      continue;
    }
    try {
      await registry.connect(attempt.provider, secret).speak(utterance);
      return { provider: attempt.provider, failures };
    } catch (err) {
      if (utterance.signal.aborted) throw err;
      failures.push(`${attempt.provider}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  throw new SpeechError(`No speech provider could speak: ${failures.join('; ')}`);
}
