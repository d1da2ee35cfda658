import { existsSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, vi } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { loadEnv } from '../../api/env.ts';
import { createServices } from '../../api/boot.ts';
import type { Services } from '../../api/services/index.ts';
import { pgliteTemplatePath } from '../../db/pglite-template.ts';
import { distDirOf } from '../../api/lib/build-info.ts';
import { pgliteCopyPath } from './migrated-copies.ts';
import { recordingRealtime } from './realtime.ts';

/**
 * A migrated in-memory PGlite and the app's services on it (test env, quiet), for unit tests that
 * call a use-case directly with no HTTP in between; `overrides` replace services (e.g. realtime).
 * The caller closes `database`.
 */
export async function openMemoryServices(overrides: Partial<Services> = {}): Promise<{ database: DatabaseHandle; services: Services }> {
  // The run's migrated copy when tests/global-setup.ts made one (nothing left to migrate), else the build's fresh cluster.
  const copy = pgliteCopyPath();
  const database = await openDatabase({ pgliteDir: 'memory://', pgliteTemplate: existsSync(copy) ? copy : pgliteTemplatePath(distDirOf()) });
  await migrateToLatest(database.db);
  const services = createServices(loadEnv({ NODE_ENV: 'test', QUIET: '1', PGLITE_DIR: 'memory://' }), database, overrides);
  return { database, services };
}

/**
 * A file's in-memory services for use-cases that log on purpose (a lost PayPal answer, a
 * reconciled attempt): opened before the file's tests and handed to `take`, closed after them;
 * before each test the spies are reset and console.error and console.warn kept quiet. The
 * realtime room is a recording stand-in.
 */
export function quietMemoryServices(take: (opened: { database: DatabaseHandle; services: Services }) => void): void {
  let database: DatabaseHandle | undefined;
  beforeAll(async () => {
    const opened = await openMemoryServices({ realtime: recordingRealtime() });
    database = opened.database;
    take(opened);
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(() => {
    vi.restoreAllMocks();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
}
