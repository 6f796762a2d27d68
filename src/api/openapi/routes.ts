// GET /openapi.json (OpenAPI 3.1) and GET /docs (the same document as a readable page, no CDN).
import Router from '@koa/router';
import type { AppDeps, AppState } from '../../http/context.js';
import { openApiDocument } from './document.js';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type Operation = {
  summary: string;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
};

function docsPage(doc: ReturnType<typeof openApiDocument>): string {
  const sections = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Operation>).map(([method, op]) => {
      const body = op.requestBody?.content['application/json']?.schema;
      const responses = Object.entries(op.responses)
        .map(([status, r]) => {
          const schema = r.content?.['application/json']?.schema;
          return `<li><b>${status}</b> ${escapeHtml(r.description)}${
            schema ? `<details><summary>schema</summary><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></details>` : ''
          }</li>`;
        })
        .join('');
      return `<section><h2><code>${method.toUpperCase()} ${escapeHtml(path)}</code></h2><p>${escapeHtml(op.summary)}</p>${
        body ? `<h3>Request body</h3><pre>${escapeHtml(JSON.stringify(body, null, 2))}</pre>` : ''
      }<h3>Responses</h3><ul>${responses}</ul></section>`;
    }),
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.info.title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
pre{background:#f5f5f5;padding:.75rem;overflow:auto;font-size:12px}section{border-top:1px solid #ddd;margin-top:1.5rem}
code{font-size:1.05em}</style></head><body><h1>${escapeHtml(doc.info.title)}</h1><p>${escapeHtml(doc.info.description)}
Machine-readable: <a href="/openapi.json">/openapi.json</a>. Authenticate with <code>Authorization: Bearer &lt;API key&gt;</code>.</p>
${sections.join('\n')}</body></html>`;
}

export function openApiRoutes({ config }: AppDeps) {
  const router = new Router<AppState>();
  const doc = openApiDocument(config.publicBaseUrl);
  const page = docsPage(doc);
  router.get('/openapi.json', (ctx) => {
    ctx.body = doc;
  });
  router.get('/docs', (ctx) => {
    ctx.type = 'html';
    ctx.body = page;
  });
  return router;
}
