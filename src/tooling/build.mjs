#!/usr/bin/env node
// `npm run build`: the production build. tsc compiles src/, workflows/ and activities/ into dist/
// (same layout, so dist/src/app/api.js and dist/src/app/worker.js run with plain `node`, no tsx),
// then every other file there (catalog, prompts, migrations, dashboard assets, plain-JS modules) is
// copied beside the compiled code, which reads them relative to itself. The tooling (this folder)
// stays out: no production module imports it (a lint rule).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'dist');
const SOURCES = ['src', 'workflows', 'activities'];
const TOOLING = 'src/tooling';

fs.rmSync(dist, { recursive: true, force: true });
// The checkout's tsconfig.json, emitting, for the production sources only (not test/ or bench/).
const cache = path.join(root, 'node_modules', '.cache');
fs.mkdirSync(cache, { recursive: true });
const config = path.join(cache, 'tsconfig.build.json');
const fromCache = (p) => path.relative(cache, path.join(root, p));
fs.writeFileSync(
  config,
  JSON.stringify({
    extends: fromCache('tsconfig.json'),
    compilerOptions: { noEmit: false, outDir: fromCache('dist'), rootDir: fromCache('.'), sourceMap: true },
    include: SOURCES.map(fromCache),
    exclude: [fromCache(TOOLING)],
  }),
);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', config], { cwd: root, stdio: 'inherit' });

let copied = 0;
const copyAssets = (dir) => {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (rel === TOOLING) continue;
    if (entry.isDirectory()) copyAssets(rel);
    else if (!entry.name.endsWith('.ts')) {
      fs.mkdirSync(path.dirname(path.join(dist, rel)), { recursive: true });
      fs.copyFileSync(path.join(root, rel), path.join(dist, rel));
      copied++;
    }
  }
};
for (const dir of SOURCES) copyAssets(dir);
process.stderr.write(`[build] dist/ ready: compiled ${SOURCES.join(', ')}; ${copied} other files copied\n`);
