/**
 * Start-up shared by the Node entry, `astro dev` and the tests: open the database, migrate,
 * seed, wire the services, build the app. Opened once per process, at start, not on the
 * first request.
 */
import type { Env } from './env.ts';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { seed } from './seed.ts';
import { seedPages } from './pages/seed-pages.ts';
import { preparePractice } from './practice/start.ts';
import { createServices, type Services } from './services/index.ts';
import { createApp } from './app.ts';

export interface BootOptions {
  /** Seed classes, slots, chocolates and coupons on a fresh database (default true). */
  seedContent?: boolean;
  overrides?: Partial<Services>;
}

/** Opens, migrates and seeds the database the environment names. */
export async function prepareDatabase(env: Env, options: BootOptions = {}) {
  const database = await openDatabase({ url: env.DATABASE_URL, pgliteDir: env.PGLITE_DIR, poolMax: env.DATABASE_POOL_MAX });
  try {
    const applied = await migrateToLatest(database.db);
    const firstStart = applied.includes('0001_initial');
    const seeded = await seed(database.db, {
      adminEmail: env.ADMIN_EMAIL,
      adminPassword: env.ADMIN_PASSWORD,
      timezone: env.SITE_TIMEZONE,
      content: firstStart && options.seedContent !== false,
    });
    // The site's words: from the YAML only for pages the database lacks (never over her edits).
    await seedPages(database.db);
    // Private records (issue 23): a key that can't open them stops the start here.
    await preparePractice(database.db, env);
    return { database, applied, firstStart, seeded };
  } catch (err) {
    await database.close().catch(() => {});
    throw err;
  }
}

export function wire(env: Env, database: DatabaseHandle, overrides?: Partial<Services>) {
  const services = createServices(env, database, overrides);
  return { services, app: createApp(services) };
}

export async function boot(env: Env, options: BootOptions = {}) {
  const prepared = await prepareDatabase(env, options);
  const { services, app } = wire(env, prepared.database, options.overrides);
  return { ...prepared, app, services, close: () => prepared.database.close() };
}
