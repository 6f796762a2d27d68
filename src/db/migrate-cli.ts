// `npm run migrate` (in the image: `node dist/src/db/migrate-cli.js`): applies the service's pending
// migrations to DATABASE_URL and exits, for operators who migrate before starting or upgrading the
// APIs (which also migrate at start). Prints the migrations it applied, as JSON.
import { loadConfigOrExit } from '../config.js';
import { migrate } from './migrate.js';
import { createPool } from './pool.js';

const config = loadConfigOrExit();
const db = createPool(config.databaseUrl, 1);
try {
  console.log(JSON.stringify({ applied: await migrate(db) }));
} catch (err) {
  console.error(JSON.stringify({ error: { code: 'failed', message: (err as Error).message } }));
  process.exitCode = 1;
} finally {
  await db.end();
}
