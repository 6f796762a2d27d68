// The composer threads' module when run from source (plain JavaScript: it runs before TypeScript support
// exists in the thread). A thread does not take tsx's loader from `--import tsx` in its execArgv under
// every Node 20 release (the import of tasks.ts then fails with ERR_UNKNOWN_FILE_EXTENSION), so it
// registers the loader itself, as the render processes do (src/engines/isolation/childEntry.mjs). A
// compiled build (npm run build) loads tasks.js directly and never reaches this file.
const { register } = await import('tsx/esm/api');
register();
const tasks = await import('./tasks.ts');

export const { composeOffline, drawStoryboard, validate } = tasks;
