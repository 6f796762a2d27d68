// First module of a render process (plain JavaScript: it runs before TypeScript support exists).
// argv: <engine's render entry module> [packages to preload…]. The engine's heavy libraries are
// imported natively first: through tsx's loader a multi-megabyte bundle (the HyperFrames producer)
// takes ~3 s to load instead of ~0.3 s. From source, tsx is then enabled for our own modules (the
// already-loaded libraries are reused from Node's module cache); a compiled build (npm run build)
// has childMain.js beside this file and needs no loader.
import fs from 'node:fs';

for (const pkg of process.argv.slice(3)) await import(pkg);
const compiled = new URL('./childMain.js', import.meta.url);
if (fs.existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./childMain.ts');
}
