// Where finished videos and composition artifacts live, behind one interface.

/** A time-limited URL (interface §2.1: `video_url = {url, expires_at}`, expires_at in Unix seconds). */
export type SignedUrl = { url: string; expires_at: number };

export interface Storage {
  readonly driver: 'local' | 's3';
  /** Stores the file at `filePath` under `key` (replacing any object there). */
  put(key: string, filePath: string, contentType: string): Promise<void>;
  /** A URL that serves `key` until it expires (default lifetime: MEDIA_URL_TTL_SECONDS). */
  url(key: string, opts?: { ttlSeconds?: number }): Promise<SignedUrl>;
  /** Removes `key`; no error when it does not exist. */
  delete(key: string): Promise<void>;
}
