// What every request handler of the HTTP layer (API routes and dashboard pages) sees.
import type { Client } from '@temporalio/client';
import type { Catalog } from '../catalog/index.js';
import type { Config } from '../config.js';
import type { KeyPrincipal } from '../db/apiKeys.js';
import type { Db } from '../db/pool.js';
import type { Logger } from '../logger.js';
import type { Storage } from '../storage/index.js';

/** What route handlers depend on; built once per process in src/app/api.ts (tests build their own). */
export type AppDeps = {
  config: Config;
  db: Db;
  temporal: Client;
  catalog: Catalog;
  storage: Storage;
  logger: Logger;
};

export type AppState = {
  requestId: string;
  log: Logger;
  /** Set by the auth middleware on keyed routes. */
  auth: KeyPrincipal;
};
