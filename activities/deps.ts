import type { Catalog } from '../src/catalog/index.js';
import type { Config } from '../src/config.js';
import type { Db } from '../src/db/pool.js';
import type { RenderTools } from '../src/engines/types.js';
import type { Logger } from '../src/logger.js';
import type { Storage } from '../src/storage/index.js';

/** What every activity factory receives from the worker (src/app/worker.ts). */
export type ActivityDeps = {
  config: Config;
  /** What renders run with: the config's render settings and the engines' own (src/engines/registry.ts renderTools). */
  renderTools: RenderTools;
  db: Db;
  catalog: Catalog;
  storage: Storage;
  logger: Logger;
};
