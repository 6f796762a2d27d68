// How every process of the service reaches the Temporal frontend (the API's client, the workers'
// native connection): its address, TLS (a CA, a client certificate for mTLS, the certificate's
// name) and an API key, all from src/config.ts (README "Security").
import fs from 'node:fs';
import type { Config } from '../config.js';

export type TemporalConnectionOptions = {
  address: string;
  tls:
    | {
        serverNameOverride?: string;
        serverRootCACertificate?: Buffer;
        clientCertPair?: { crt: Buffer; key: Buffer };
      }
    | false;
  apiKey?: string;
};

/** The options both connection kinds take; reads the PEM files now (a missing one throws, naming its variable). */
export function temporalConnectionOptions({ temporal }: Pick<Config, 'temporal'>): TemporalConnectionOptions {
  const read = (file: string, variable: string) => {
    try {
      return fs.readFileSync(file);
    } catch (err) {
      throw new Error(`${variable}=${file} cannot be read: ${(err as Error).message}`, { cause: err });
    }
  };
  const { tls } = temporal;
  return {
    address: temporal.address,
    tls: tls
      ? {
          ...(tls.serverName ? { serverNameOverride: tls.serverName } : {}),
          ...(tls.caFile ? { serverRootCACertificate: read(tls.caFile, 'TEMPORAL_TLS_CA') } : {}),
          ...(tls.certFile && tls.keyFile
            ? {
                clientCertPair: {
                  crt: read(tls.certFile, 'TEMPORAL_TLS_CERT'),
                  key: read(tls.keyFile, 'TEMPORAL_TLS_KEY'),
                },
              }
            : {}),
        }
      : false,
    ...(temporal.apiKey ? { apiKey: temporal.apiKey } : {}),
  };
}
