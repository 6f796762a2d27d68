// The rendering engines behind one interface: activities and the API use the registry's engines.
export {
  allEngines,
  checkEngineSettingsOrExit,
  chooseEngine,
  defaultEngineId,
  engineIds,
  engineVariables,
  getEngine,
  registerEngine,
  registerEnginePlugins,
  renderTools,
} from './registry.js';
export { renderCaptionsOverlay } from './captions.js';
export * from './limits.js';
export {
  engineSettings,
  RenderError,
  type Canvas,
  type Engine,
  type EngineLlmKit,
  type EngineModule,
  type EngineSettings,
  type Finding,
  type MediaAsset,
  type OfflineCompositionSpec,
  type RenderErrorCode,
  type RenderProgress,
  type RenderOptions,
  type RenderResult,
  type RenderTools,
  type ValidationTarget,
} from './types.js';
