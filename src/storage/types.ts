// Where compositions, finished videos and artifacts live, behind one interface. Workers and the API
// share it: an activity stores a composition once and passes its key through workflow history.

/** A time-limited URL (interface §2.1: `video_url = {url, expires_at}`, expires_at in Unix seconds). */
export type SignedUrl = { url: string; expires_at: number };

export interface Storage {
  readonly driver: 'local' | 's3';
  /** Stores the file at `filePath` under `key` (replacing any object there). */
  put(key: string, filePath: string, contentType: string): Promise<void>;
  /** A URL that serves `key` until it expires (default lifetime: MEDIA_URL_TTL_SECONDS). */
  url(key: string, opts?: { ttlSeconds?: number }): Promise<SignedUrl>;
  /** Stores a text (a composition) under `key`. */
  putText(key: string, text: string, contentType: string): Promise<void>;
  /** The text stored under `key` (UTF-8); throws when there is none. */
  getText(key: string): Promise<string>;
  /** Removes the object under `key`; none there is no error. */
  delete(key: string): Promise<void>;
}
