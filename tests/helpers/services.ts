import { openDatabase, type DatabaseHandle } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { loadEnv } from '../../api/env.ts';
import { createServices } from '../../api/boot.ts';
import type { Services } from '../../api/services/index.ts';

/**
 * A migrated in-memory PGlite and the app's services on it (test env, quiet), for unit tests that
 * call a use-case directly with no HTTP in between; `overrides` replace services (e.g. realtime).
 * The caller closes `database`.
 */
export async function openMemoryServices(overrides: Partial<Services> = {}): Promise<{ database: DatabaseHandle; services: Services }> {
  const database = await openDatabase({ pgliteDir: 'memory://' });
  await migrateToLatest(database.db);
  const services = createServices(loadEnv({ NODE_ENV: 'test', QUIET: '1', PGLITE_DIR: 'memory://' }), database, overrides);
  return { database, services };
}
