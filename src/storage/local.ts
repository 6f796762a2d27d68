// Local filesystem driver: objects under <DATA_DIR>/media/<key>, their content types under
// <DATA_DIR>/media/.meta/<key>.json (keys cannot start with a dot), served by the API's media
// route (src/api/media/routes.ts) at signed URLs.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { assertValidKey, isValidKey, keyToUrlPath } from './keys.js';
import { checkMediaSignature, signMedia, type SignatureCheck } from './signing.js';
import type { SignedUrl, Storage } from './types.js';

export type LocalStorageOptions = {
  root: string;
  secret: string;
  /** Base URL media URLs start with (config MEDIA_BASE_URL, else PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  ttlSeconds: number;
  now?: () => number;
};

export type StoredObject = { path: string; size: number; contentType: string; modified: Date };

const META_DIR = '.meta';

export class LocalStorage implements Storage {
  readonly driver = 'local' as const;
  private readonly now: () => number;

  constructor(private readonly opts: LocalStorageOptions) {
    this.now = opts.now ?? Date.now;
  }

  private filePath(key: string) {
    return path.join(this.opts.root, ...key.split('/'));
  }

  private metaPath(key: string) {
    return path.join(this.opts.root, META_DIR, ...`${key}.json`.split('/'));
  }

  async put(key: string, filePath: string, contentType: string): Promise<void> {
    await this.write(key, contentType, (tmp) => fs.promises.copyFile(filePath, tmp));
  }

  async putText(key: string, text: string, contentType: string): Promise<void> {
    await this.write(key, contentType, (tmp) => fs.promises.writeFile(tmp, text));
  }

  async getText(key: string): Promise<string> {
    assertValidKey(key);
    return fs.promises.readFile(this.filePath(key), 'utf8');
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await fs.promises.rm(this.filePath(key), { force: true });
    await fs.promises.rm(this.metaPath(key), { force: true });
  }

  /** Writes beside the target, then renames: readers see the old object or the new one, never half of one. */
  private async write(key: string, contentType: string, fill: (tmp: string) => Promise<void>): Promise<void> {
    assertValidKey(key);
    const target = this.filePath(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.mkdir(path.dirname(this.metaPath(key)), { recursive: true });
    const tmp = `${target}.${crypto.randomBytes(6).toString('hex')}.partial`;
    try {
      await fill(tmp);
      await fs.promises.writeFile(this.metaPath(key), JSON.stringify({ content_type: contentType }));
      await fs.promises.rename(tmp, target);
    } finally {
      await fs.promises.rm(tmp, { force: true });
    }
  }

  async url(key: string, opts: { ttlSeconds?: number } = {}): Promise<SignedUrl> {
    assertValidKey(key);
    const expires = Math.floor(this.now() / 1000) + (opts.ttlSeconds ?? this.opts.ttlSeconds);
    const sig = signMedia(this.opts.secret, key, expires);
    return {
      url: `${this.opts.publicBaseUrl}/media/${keyToUrlPath(key)}?expires=${expires}&sig=${sig}`,
      expires_at: expires,
    };
  }

  checkSignature(key: string, expires: string | undefined, sig: string | undefined): SignatureCheck {
    if (!isValidKey(key)) return 'invalid';
    return checkMediaSignature(this.opts.secret, key, expires, sig, Math.floor(this.now() / 1000));
  }

  /** The stored file behind `key`, or undefined when there is none. */
  async stat(key: string): Promise<StoredObject | undefined> {
    if (!isValidKey(key)) return undefined;
    const file = this.filePath(key);
    const stat = await fs.promises.stat(file).catch(() => undefined);
    if (!stat?.isFile()) return undefined;
    const meta = await fs.promises
      .readFile(this.metaPath(key), 'utf8')
      .then((s) => JSON.parse(s) as { content_type?: string })
      .catch(() => ({ content_type: undefined }));
    return {
      path: file,
      size: stat.size,
      contentType: meta.content_type ?? 'application/octet-stream',
      modified: stat.mtime,
    };
  }
}
