/**
 * Issue 49: each test file's database is a copy of one migrated database the run made at its
 * start (tests/helpers/migrated-copies.ts), not migrated again file by file. The copy must be what
 * a migrated database is: every migration recorded, none left to run, and its first start seeds
 * as a new database's does.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { prepareDatabase } from '../../../api/boot.ts';
import { migrationNames } from '../../../db/migrate.ts';
import { freshDatabase, rowCount, testDbKind } from '../../helpers/database.ts';
import { testServerEnv } from '../../helpers/server.ts';

describe(`a test database on ${testDbKind()}`, () => {
  it('is a copy of the migrated database: every migration recorded, none run at start, seeded as a first start', { timeout: 120_000 }, async () => {
    const database = await freshDatabase(undefined, { migrated: true });
    expect(database.migratedCopy, 'tests/global-setup.ts made the migrated copy').toBeDefined();
    const prepared = await prepareDatabase(testServerEnv(database.env), {
      ...(database.migratedCopy ? { migratedCopy: database.migratedCopy } : {}),
      seedContent: true,
    });
    try {
      expect(prepared.applied).toEqual([]);
      expect(prepared.firstStart).toBe(true);
      const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(prepared.database.db.withoutPlugins());
      expect(rows.map((r) => r.name)).toEqual(migrationNames());
      expect(await rowCount(prepared.database.db, 'products'), 'the first start seeded her chocolates').toBeGreaterThan(0);
    } finally {
      await prepared.database.close();
      await database.drop();
    }
  });
});
