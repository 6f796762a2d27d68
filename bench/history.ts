// bench/history: the Temporal workflow history size of one generation whose composition is large,
// from `describe` (historySizeBytes). An OpenAI-compatible server on loopback answers every
// composition call with a valid Lottie of --mib MiB (and, with --repairs N, N invalid drafts first).
//   npx tsx bench/history.ts [--mib 1] [--repairs 0] [--root <checkout>]
// --root runs the API and worker of another checkout (with node_modules), e.g. an older commit, so
// both are measured by the same script.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { getEngine } from '../src/engines/index.js';
import { stopChild } from '../src/tooling/temporalDevServer.js';
import { benchContext, benchServices, entryPoint, today, waitFor } from './support.js';

const { values } = parseArgs({
  options: {
    mib: { type: 'string', default: '1' },
    repairs: { type: 'string', default: '0' },
    root: { type: 'string' },
  },
});
const root = path.resolve(values.root ?? path.join(import.meta.dirname, '..'));
const ctx = benchContext('history');

const canvas = { width: 160, height: 284 };
const animation = JSON.parse(
  getEngine('lottie').composeOffline({
    prompt: 'history',
    instructions: null,
    durationSeconds: null,
    assets: [],
    ...canvas,
  }),
);
animation.layers[0].nm = 'x'.repeat(Math.round(Number(values.mib) * 1024 * 1024));
const valid = JSON.stringify(animation);
const invalid = JSON.stringify({ ...animation, op: 0 });
let calls = 0;

try {
  const llm = http.createServer((req, res) => {
    req.resume().on('end', () => {
      const reply = calls++ < Number(values.repairs) ? invalid : valid;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          choices: [{ message: { content: `\`\`\`json\n${reply}\n\`\`\`` }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 10 },
        }),
      );
    });
  });
  await new Promise<void>((r) => llm.listen(0, '127.0.0.1', r));
  ctx.defer(() => new Promise((r) => llm.close(r)));
  const providersFile = path.join(ctx.tmp, 'providers.json');
  const llmUrl = `http://127.0.0.1:${(llm.address() as { port: number }).port}/v1`;
  fs.writeFileSync(
    providersFile,
    JSON.stringify({
      providers: { fake: { protocol: 'openai', base_url: llmUrl, models: { 'gpt-4o-mini': 'fake' } } },
    }),
  );

  const { base, key, env, temporalAddress } = await benchServices(ctx, 1_000_000, { PROVIDERS_FILE: providersFile });

  for (const entry of [entryPoint(root, 'api'), entryPoint(root, 'worker')]) {
    const child = spawn(process.execPath, ['--import', 'tsx', entry], {
      cwd: root,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    ctx.defer(() => stopChild(child));
  }
  await waitFor(async () => (await fetch(`${base}/readyz`)).ok);

  const created = await fetch(`${base}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', engine: 'lottie', input: 'A big composition', ...canvas }),
  }).then((r) => r.json() as Promise<{ id: string }>);
  let status = '';
  await waitFor(async () => {
    const g = (await fetch(`${base}/v1/responses/${created.id}`, { headers: { authorization: `Bearer ${key}` } }).then(
      (r) => r.json(),
    )) as { status: string };
    status = g.status;
    return !['queued', 'in_progress'].includes(status);
  }, 180_000);

  const connection = await Connection.connect({ address: temporalAddress });
  ctx.defer(() => connection.close());
  const described = await new Client({ connection }).workflow.getHandle(created.id).describe();
  const info = described.raw.workflowExecutionInfo!;
  console.log(
    `${today()}  root=${path.basename(root)}  composition=${valid.length} B  repairs=${values.repairs}  ` +
      `status=${status}  history: ${String(info.historyLength)} events, ${String(info.historySizeBytes)} bytes`,
  );
} finally {
  await ctx.cleanup();
}
