declare module 'inflation' {
  import type { IncomingMessage } from 'node:http';
  import type { Readable } from 'node:stream';
  /** The request's body decoded by its Content-Encoding (gzip, deflate, br, identity); throws 415 for others. */
  export default function inflate(stream: IncomingMessage): Readable;
}
