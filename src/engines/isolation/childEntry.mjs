// First module of a render process (plain JavaScript: it runs before TypeScript support exists).
// argv: <engine's render entry module> [packages to preload…]. The engine's heavy libraries are
// imported natively first: through tsx's loader a multi-megabyte bundle (the HyperFrames producer)
// takes ~3 s to load instead of ~0.3 s. tsx is then enabled for our own modules, and the
// already-loaded libraries are reused from Node's module cache.
for (const pkg of process.argv.slice(3)) await import(pkg);
const { register } = await import('tsx/esm/api');
register();
await import('./childMain.ts');
