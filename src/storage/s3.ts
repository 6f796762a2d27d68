// S3 (or any S3-compatible store) driver: objects in S3_BUCKET, URLs presigned for GET by the SDK,
// so clients download straight from the bucket.
import fs from 'node:fs';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { contentDisposition } from './disposition.js';
import { assertValidKey } from './keys.js';
import type { SignedUrl, Storage } from './types.js';

export type S3StorageOptions = {
  bucket: string;
  region: string;
  endpoint?: string;
  /** The endpoint clients download from, when it is not `endpoint` (the service reaches the store by another name). */
  publicEndpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  ttlSeconds: number;
};

/** SigV4 presigned URLs live at most 7 days. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

export class S3Storage implements Storage {
  readonly driver = 's3' as const;
  readonly client: S3Client;
  /** Signs download URLs: a SigV4 signature covers the host, so it is made for the host clients use. */
  private readonly presigner: S3Client;

  constructor(private readonly opts: S3StorageOptions) {
    this.client = S3Storage.createClient(opts, opts.endpoint);
    this.presigner = opts.publicEndpoint ? S3Storage.createClient(opts, opts.publicEndpoint) : this.client;
  }

  private static createClient(opts: S3StorageOptions, endpoint: string | undefined): S3Client {
    return new S3Client({
      region: opts.region,
      endpoint,
      forcePathStyle: opts.forcePathStyle,
      // The SDK's default CRC checksums upload as aws-chunked bodies, which many S3-compatible stores
      // (MinIO before 2024, Ceph, gofakes3…) reject: add them only where an operation requires them.
      ...(opts.endpoint
        ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }
        : {}),
      // Without explicit keys the SDK's default chain applies (environment, profile, instance role).
      credentials:
        opts.accessKeyId && opts.secretAccessKey
          ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey }
          : undefined,
    });
  }

  async put(key: string, filePath: string, contentType: string): Promise<void> {
    assertValidKey(key);
    const { size } = await fs.promises.stat(filePath);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.opts.bucket,
        Key: key,
        Body: fs.createReadStream(filePath),
        ContentLength: size,
        ContentType: contentType,
        ContentDisposition: contentDisposition(key, contentType),
      }),
    );
  }

  async putText(key: string, text: string, contentType: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.opts.bucket,
        Key: key,
        Body: text,
        ContentType: contentType,
        ContentDisposition: contentDisposition(key, contentType),
      }),
    );
  }

  async getText(key: string): Promise<string> {
    assertValidKey(key);
    const res = await this.client.send(new GetObjectCommand({ Bucket: this.opts.bucket, Key: key }));
    if (!res.Body) throw new Error(`S3 object ${key} has no body`);
    return res.Body.transformToString('utf-8');
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: key }));
  }

  async url(key: string, opts: { ttlSeconds?: number } = {}): Promise<SignedUrl> {
    assertValidKey(key);
    const ttl = Math.min(opts.ttlSeconds ?? this.opts.ttlSeconds, MAX_PRESIGN_SECONDS);
    const signedAt = new Date();
    const url = await getSignedUrl(this.presigner, new GetObjectCommand({ Bucket: this.opts.bucket, Key: key }), {
      expiresIn: ttl,
      signingDate: signedAt,
    });
    return { url, expires_at: Math.floor(signedAt.getTime() / 1000) + ttl };
  }
}
