// The work pool.ts hands to its worker threads. Each thread registers the engines the process does
// (the built-in ones and ENGINE_PLUGINS) before its first task.
import { loadConfig } from '../config.js';
import { getEngine, registerEnginePlugins } from '../engines/index.js';
import type { OfflineCompositionSpec, ValidationTarget } from '../engines/types.js';
import { countTokens } from '../providers/tokens.js';
import type { Finding, TokenUsage } from '../shared.js';

const ready = registerEnginePlugins(loadConfig().enginePlugins);

export async function composeOffline({ engine, spec, prompt }: { engine: string; spec: OfflineCompositionSpec; prompt: string }): Promise<{ source: string; usage: TokenUsage }> {
  await ready;
  const source = getEngine(engine).composeOffline(spec);
  return { source, usage: { input_tokens: countTokens(prompt), output_tokens: countTokens(source) } };
}

export async function validate({ engine, source, target }: { engine: string; source: string; target: ValidationTarget }): Promise<Finding[]> {
  await ready;
  return getEngine(engine).validate(source, target);
}
