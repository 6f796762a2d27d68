// The OpenAPI document as a reader meets it: every operation, parameter, response and field
// described, examples everywhere, realistic bounds, webhooks with their headers, and
// `redocly lint` (test/api/redocly.yaml: strict rules, examples checked against schemas) clean.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi/document.js';

const doc = openApiDocument('http://127.0.0.1:8080') as any;
type Node = Record<string, any>;

/** Every operation of the document: paths and webhooks. */
function operations(): [string, Node][] {
  const out: [string, Node][] = [];
  for (const [group, entries] of [
    ['paths', doc.paths],
    ['webhooks', doc.webhooks],
  ] as const) {
    for (const [name, item] of Object.entries(entries as Node)) {
      for (const [method, op] of Object.entries(item as Node))
        out.push([`${group} ${method.toUpperCase()} ${name}`, op]);
    }
  }
  return out;
}

const deref = (node: Node): Node =>
  typeof node.$ref === 'string'
    ? node.$ref
        .slice(2)
        .split('/')
        .reduce((n: Node, k: string) => n[k], doc)
    : node;

it('describes every operation, parameter and response, with examples for every status', () => {
  const missing: string[] = [];
  for (const [name, op] of operations()) {
    for (const field of ['operationId', 'summary', 'description']) if (!op[field]) missing.push(`${name}: ${field}`);
    for (const p of op.parameters ?? []) if (!p.description) missing.push(`${name}: parameter ${p.name}`);
    const body = op.requestBody?.content?.['application/json'];
    if (body && body.example === undefined) missing.push(`${name}: request example`);
    for (const [status, raw] of Object.entries(op.responses as Node)) {
      const response = deref(raw as Node);
      if (!response.description) missing.push(`${name} ${status}: description`);
      for (const [type, media] of Object.entries((response.content ?? {}) as Node)) {
        if (media.example === undefined && !Object.keys(media.examples ?? {}).length)
          missing.push(`${name} ${status} ${type}: example`);
      }
    }
    // Every error status shows its body (webhook receivers' answers have none).
    if (name.startsWith('paths'))
      for (const [status, raw] of Object.entries(op.responses as Node))
        if (!deref(raw as Node).content) missing.push(`${name} ${status}: body`);
  }
  expect(missing).toEqual([]);
  expect(operations().length).toBeGreaterThanOrEqual(16);
});

it('describes every field of every schema, with no MAX_SAFE_INTEGER bounds', () => {
  const missing: string[] = [];
  const walk = (node: Node, at: string) => {
    if (!node || typeof node !== 'object') return;
    for (const [name, property] of Object.entries((node.properties ?? {}) as Node)) {
      if (!property.description && !property.$ref) missing.push(`${at}.${name}`);
      walk(property, `${at}.${name}`);
    }
    for (const key of ['items', 'additionalProperties'])
      if (node[key] && typeof node[key] === 'object') walk(node[key], `${at}[]`);
    for (const key of ['anyOf', 'oneOf', 'allOf'])
      for (const [i, member] of (node[key] ?? []).entries()) walk(member, `${at}|${i}`);
  };
  for (const [name, schema] of Object.entries(doc.components.schemas as Node)) {
    if (!schema.description) missing.push(name);
    walk(schema, name);
  }
  expect(missing).toEqual([]);
  const text = JSON.stringify(doc);
  expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
  // Optional fields take null as "not given" (typed SDKs send it): an integer or null.
  const width = doc.components.schemas.CreateResponseRequest.properties.width;
  expect(width.anyOf.map((member: Node) => member.type)).toEqual(['integer', 'null']);
  const [integer] = width.anyOf;
  expect([integer.minimum, integer.maximum, integer.exclusiveMinimum]).toEqual([16, 3840, undefined]);
});

it('documents the lifecycle webhooks with their signature headers, and streaming on both retrieves', () => {
  for (const type of ['video.generation.queued', 'video.generation.started', 'video.generation.completed']) {
    const op = doc.webhooks[type]?.post;
    expect(op, type).toBeDefined();
    expect(op.parameters.map((p: Node) => `${p.in}:${p.name}`)).toEqual([
      'header:service-webhook-id',
      'header:service-webhook-timestamp',
      'header:service-webhook-signature',
    ]);
    expect(op.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/WebhookEvent');
  }
  for (const path of ['/v1/responses/{id}', '/v1/chat/completions/{id}']) {
    const get = doc.paths[path].get;
    expect(get.parameters.map((p: Node) => p.name)).toContain('stream');
    expect(Object.keys(get.responses['200'].content)).toEqual(['application/json', 'text/event-stream']);
  }
});

it('passes `redocly lint` with no errors and no warnings', { timeout: 60_000 }, async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-')), 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  const run = promisify(execFile);
  const result = await run(
    path.resolve('node_modules/.bin/redocly'),
    ['lint', file, '--config', path.resolve('test/api/redocly.yaml'), '--format', 'json'],
    {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  ).catch((err: { stdout: string }) => err);
  const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{')));
  expect(report.problems.map((p: Node) => `${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`)).toEqual([]);
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
});
