// First module of a render process (plain JavaScript: it runs before TypeScript support exists).
// The engine's heavy library is imported natively first: through tsx's loader the multi-megabyte
// producer bundle takes ~3 s to load instead of ~0.3 s. tsx is then enabled for our own modules,
// and the already-loaded library is reused from Node's module cache.
const engine = process.argv[2];
if (engine === 'hyperframes') await import('@hyperframes/producer');
else if (engine === 'lottie') await import('@lottiefiles/dotlottie-web');
const { register } = await import('tsx/esm/api');
register();
await import('./childMain.ts');
