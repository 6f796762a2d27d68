// The engine registry: the one list of engine modules. Adding an engine is a folder
// `src/engines/<id>/` exporting an EngineModule, plus one line in BUILT_IN_ENGINES (or, without
// touching the source, a module named in ENGINE_PLUGINS). Everything that names engines (request
// enums, OpenAPI, catalog, `auto`) is derived from this registry at run time. Each engine declares
// its own settings (EngineModule.settings); the registry reads them from the config's environment.
import { pathToFileURL } from 'node:url';
import { exitOnConfigError, type Config } from '../config.js';
import { hyperframesEngine } from './hyperframes/index.js';
import { lottieEngine } from './lottie/index.js';
import { renderIsolated } from './render.js';
import type { Engine, EngineModule, RenderTools } from './types.js';

/** The first engine is the default of requests that name none. */
const BUILT_IN_ENGINES: readonly EngineModule[] = [hyperframesEngine, lottieEngine];

const ENGINE_ID = /^[a-z][a-z0-9-]{0,31}$/;
const engines = new Map<string, Engine>();

/**
 * Adds an engine to this process's registry (the built-in ones are added at load). Plug-ins and
 * tests register theirs before the API app and the worker are created, in every process that serves
 * requests or renders.
 */
export function registerEngine(module: EngineModule): void {
  if (!ENGINE_ID.test(module.id)) throw new Error(`engine id "${module.id}" must match ${ENGINE_ID}`);
  if (module.id === 'auto') throw new Error('"auto" is reserved for engine choice');
  if (engines.has(module.id)) throw new Error(`engine "${module.id}" is registered twice`);
  engines.set(module.id, { ...module, render: (source, opts) => renderIsolated(module, source, opts) });
}

for (const module of BUILT_IN_ENGINES) registerEngine(module);

/** Registers the engines of ENGINE_PLUGINS (modules exporting `engine`); API and workers call it at start. */
export async function registerEnginePlugins(paths: readonly string[]): Promise<void> {
  for (const file of paths) {
    const { engine } = (await import(pathToFileURL(file).href)) as { engine?: EngineModule };
    if (!engine?.id) throw new Error(`ENGINE_PLUGINS: ${file} exports no \`engine\``);
    registerEngine(engine);
  }
}

/** Registered engine ids, the default first. */
export function engineIds(): [string, ...string[]] {
  return [...engines.keys()] as [string, ...string[]];
}

export const defaultEngineId = (): string => engineIds()[0];

export function getEngine(id: string): Engine {
  const engine = engines.get(id);
  if (!engine) throw new Error(`Unknown engine: ${id}`);
  return engine;
}

export function allEngines(): Engine[] {
  return [...engines.values()];
}

/**
 * `engine: "auto"`: the first engine (in registry order) one of whose keywords the prompt contains as
 * a word; otherwise the default engine.
 */
export function chooseEngine(requested: string, text: string): string {
  if (requested !== 'auto') return requested;
  const words = new Set(text.toLowerCase().match(/\p{L}+/gu) ?? []);
  return allEngines().find((e) => e.autoKeywords.some((w) => words.has(w)))?.id ?? defaultEngineId();
}

/**
 * What renders run with: the config's render settings, and each engine's own settings read from the
 * config's environment with the config's checks (a bad value throws ConfigError naming the variable),
 * once per engine on first use.
 */
export function renderTools(config: Pick<Config, 'render' | 'readVariables'>): RenderTools {
  const read = new Map<string, unknown>();
  return {
    ...config.render,
    engineSettings(engine) {
      if (!read.has(engine.id))
        read.set(
          engine.id,
          engine.settings ? engine.settings.read(config.readVariables(engine.settings.variables)) : {},
        );
      return read.get(engine.id);
    },
  };
}

/**
 * For the worker at start, once the plug-ins are registered: every engine's settings read now, or exit naming the bad
 * variable.
 */
export function checkEngineSettingsOrExit(tools: RenderTools): void {
  exitOnConfigError(() => allEngines().forEach((engine) => tools.engineSettings(engine)));
}

/** Every environment variable the registered engines read (the config's own: configVariables). */
export function engineVariables(): string[] {
  return allEngines().flatMap((engine) => Object.keys(engine.settings?.variables.shape ?? {}));
}
