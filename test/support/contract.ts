// The OpenAPI document as a contract over the integration tests: every answer the in-process API gives
// to a documented operation (any client: fetch, the openai package, raw sockets) and every webhook
// delivery the test receivers get is checked against /openapi.json: the status must be documented
// for the operation, the content type too, and JSON bodies must validate against the response's
// schema (Ajv's JSON Schema 2020-12 dialect, the one OpenAPI 3.1 uses). Error messages clients read
// (`error.message`, a webhook's `error_message`) must not show the machine's insides: its paths, the
// render work directories, installed modules, stack frames. test/support/contractSetup.ts fails the
// test that saw a mismatch; globalSetup reports the totals.
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { openApiDocument } from '../../src/api/openapi/document.js';

type Node = Record<string, any>;
type Operation = { id: string; pattern: RegExp; method: string; node: Node };

const doc = openApiDocument('http://127.0.0.1') as Node;
// `example`/`x-…` are OpenAPI keywords Ajv does not know; formats are not asserted in responses.
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ components: doc.components }, 'openapi.json');

const OPERATIONS: Operation[] = Object.entries(doc.paths as Node).flatMap(([template, item]) =>
  Object.entries(item as Node).map(([method, node]) => ({
    id: (node as Node).operationId,
    method: method.toUpperCase(),
    node: node as Node,
    // The router matches paths case-insensitively, with an optional trailing slash.
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i'),
  })),
);

/** What the contract saw in this test process: per operation and status, and the mismatches. */
export const seen = { checked: new Map<string, number>(), violations: [] as string[] };

const validators = new Map<string, ValidateFunction>();
/** A schema of the document (or inline in it), compiled once; `$ref`s resolve into its components. */
function validatorFor(key: string, schema: Node): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(
      JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/')),
    );
    validators.set(key, validate);
  }
  return validate;
}

const deref = (node: Node): Node =>
  typeof node.$ref === 'string'
    ? node.$ref
        .slice(2)
        .split('/')
        .reduce((n: Node, k: string) => n[k], doc)
    : node;

/** Checks one answer; returns the mismatch, or null. Unknown paths and methods are not operations. */
export function checkResponse(
  method: string,
  url: string,
  status: number,
  contentType: string | undefined,
  body: string | null,
): string | null {
  // The raw request target: fuzzed ones (`//%3E…`) are no valid URL, and no operation either.
  const pathname = url.split('?')[0]!;
  const op = OPERATIONS.find((o) => o.method === method && o.pattern.test(pathname));
  if (!op) return null;
  const where = `${method} ${pathname} → ${status}`;
  seen.checked.set(`${op.id} ${status}`, (seen.checked.get(`${op.id} ${status}`) ?? 0) + 1);
  const documented =
    op.node.responses[String(status)] ?? op.node.responses[`${String(status)[0]}XX`] ?? op.node.responses.default;
  if (!documented) return `${where}: status not documented for ${op.id} (body ${body?.slice(0, 300)})`;
  const response = deref(documented);
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const media = response.content?.[mediaType];
  if (!media)
    return (
      `${where}: content type "${mediaType}" not documented ` +
      `(${Object.keys(response.content ?? {}).join(', ') || 'no body'})`
    );
  if (mediaType !== 'application/json' || body === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return `${where}: body is not JSON: ${body.slice(0, 200)}`;
  }
  const validate = validatorFor(`${op.id} ${status}`, media.schema);
  if (!validate(value)) return `${where}: ${describeErrors(validate)}\n  body: ${body.slice(0, 500)}`;
  return internalDetail(where, value);
}

const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');
/**
 * What only the machine knows: the checkout, our temp directories (renders, tests), installed modules, stack frames.
 */
const MACHINE_DETAIL = [
  PROJECT_ROOT,
  `${os.tmpdir()}/video-`,
  `${os.tmpdir()}/render-`,
  'node_modules/',
  'node:internal',
  /\bat (?:async )?[\w.$<>]+ \(/,
  /\bat \S+:\d+:\d+/,
];

/** The first error message in a body that shows machine detail, as a mismatch; null when there is none. */
function internalDetail(where: string, value: unknown): string | null {
  const messages: string[] = [];
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(collect);
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (
        typeof v === 'string' &&
        (k === 'error_message' || (k === 'message' && 'code' in node) || (k === 'message' && 'type' in node))
      )
        messages.push(v);
      else collect(v);
    }
  };
  collect(value);
  const leak = messages.find((m) => MACHINE_DETAIL.some((d) => (typeof d === 'string' ? m.includes(d) : d.test(m))));
  return leak ? `${where}: an error message shows machine detail: ${leak.slice(0, 300)}` : null;
}

/** Checks a webhook delivery (headers and body) against the document's `webhooks`. */
export function checkWebhook(headers: Record<string, string>, body: string): string | null {
  let event: Node;
  try {
    event = JSON.parse(body);
  } catch {
    return `webhook: body is not JSON: ${body.slice(0, 200)}`;
  }
  const type = String(event.type);
  const op = doc.webhooks[type]?.post as Node | undefined;
  if (!op) return `webhook: event type ${type} not documented`;
  seen.checked.set(`${op.operationId} delivery`, (seen.checked.get(`${op.operationId} delivery`) ?? 0) + 1);
  for (const p of op.parameters as Node[]) {
    if (p.required && headers[p.name] === undefined) return `webhook ${type}: header ${p.name} missing`;
  }
  const validate = validatorFor(`${op.operationId} body`, op.requestBody.content['application/json'].schema);
  if (!validate(event)) return `webhook ${type}: ${describeErrors(validate)}\n  body: ${body.slice(0, 500)}`;
  return internalDetail(`webhook ${type}`, event);
}

/** Ajv's errors, each with its location and the offending property or value. */
const describeErrors = (validate: ValidateFunction) =>
  (validate.errors ?? [])
    .map((e) => {
      const params = e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : '';
      return `body${e.instancePath} ${e.message}${params}`;
    })
    .join('; ');

export function record(problem: string | null): void {
  if (problem) seen.violations.push(problem);
}

const MAX_CAPTURE = 4 * 1024 * 1024;

/**
 * Watches one request of the in-process API: captures what the handler writes (JSON bodies only)
 * and checks the answer when it has been sent.
 */
export function watchResponse(req: http.IncomingMessage, res: http.ServerResponse): void {
  if (req.method === 'HEAD') return;
  const chunks: Buffer[] = [];
  let size = 0;
  const capture = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function' || size > MAX_CAPTURE) return;
    if (!/json/i.test(String(res.getHeader('content-type') ?? ''))) return;
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    size += buf.length;
    chunks.push(buf);
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    capture(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    capture(chunk, rest[0]);
    return end(chunk, ...rest);
  }) as typeof res.end;
  // `finish`: the whole answer was handed to the OS. A stream the client dropped ends with `close`
  // only; its status and content type were sent all the same.
  let checked = false;
  const check = () => {
    if (checked || !res.headersSent) return;
    checked = true;
    const body = size > MAX_CAPTURE ? null : chunks.length ? Buffer.concat(chunks).toString('utf8') : null;
    try {
      record(
        checkResponse(
          req.method ?? 'GET',
          req.url ?? '/',
          res.statusCode,
          res.getHeader('content-type') as string | undefined,
          body,
        ),
      );
    } catch (err) {
      // A listener of the server's response must never throw: report it as the test's failure instead.
      record(`${req.method} ${req.url}: the contract check failed: ${String(err)}`);
    }
  };
  res.on('finish', check);
  res.on('close', check);
}

/** Where each test file's counts go, under the run's data directory (summed by globalSetup). */
export const contractReportDir = (dataDir: string) => path.join(dataDir, 'openapi-contract');

export function saveCounts(dataDir: string, file: string): void {
  const dir = contractReportDir(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, `${path.basename(file)}-${process.pid}-${Date.now()}.json`),
    JSON.stringify(Object.fromEntries(seen.checked)),
  );
}
