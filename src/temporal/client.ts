import { Client, Connection } from '@temporalio/client';
import type { Config } from '../config.js';
import { temporalConnectionOptions } from './connection.js';

/** A client whose connection is made on first use, so the API starts (and /readyz says 503) while Temporal is down. */
export function createTemporalClient(config: Config): Client {
  const connection = Connection.lazy(temporalConnectionOptions(config));
  return new Client({ connection, namespace: config.temporal.namespace });
}
