import { inject, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { createPool } from '../../src/db/pool.js';

describe('migrations', () => {
  it('applying them again is a no-op', async () => {
    const db = createPool(inject('databaseUrl'), 2);
    try {
      const schemaBefore = await db.query(
        `SELECT table_name, column_name, data_type FROM information_schema.columns
         WHERE table_schema = 'public' ORDER BY 1, 2`,
      );
      const applied = await db.query('SELECT name, applied_at FROM schema_migrations ORDER BY name');
      expect(applied.rows.length).toBeGreaterThan(0);

      expect(await migrate(db)).toEqual([]);
      // Concurrent runs (API and worker starting together) take turns and apply nothing twice.
      expect(await Promise.all([migrate(db), migrate(db)])).toEqual([[], []]);

      expect((await db.query('SELECT name, applied_at FROM schema_migrations ORDER BY name')).rows).toEqual(
        applied.rows,
      );
      const schemaAfter = await db.query(
        `SELECT table_name, column_name, data_type FROM information_schema.columns
         WHERE table_schema = 'public' ORDER BY 1, 2`,
      );
      expect(schemaAfter.rows).toEqual(schemaBefore.rows);
    } finally {
      await db.end();
    }
  });
});
