// The storage driver the config asks for: local files served by the API (default) or S3.
import path from 'node:path';
import type { Config } from '../config.js';
import { LocalStorage } from './local.js';
import { S3Storage } from './s3.js';
import { mediaUrlSecret } from './signing.js';
import type { Storage } from './types.js';

export function createStorage(config: Config): Storage {
  const { storage } = config;
  if (storage.driver === 's3') {
    return new S3Storage({ ...storage.s3, bucket: storage.s3.bucket!, ttlSeconds: storage.urlTtlSeconds });
  }
  return new LocalStorage({
    root: path.join(config.dataDir, 'media'),
    secret: mediaUrlSecret(storage, config.dataDir),
    publicBaseUrl: config.mediaBaseUrl ?? config.publicBaseUrl,
    ttlSeconds: storage.urlTtlSeconds,
  });
}

export { LocalStorage } from './local.js';
export { S3Storage } from './s3.js';
export { isValidKey } from './keys.js';
export type { SignedUrl, Storage } from './types.js';
