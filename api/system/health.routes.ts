import { Hono } from 'hono';
import { sql } from 'kysely';
import type { AppEnv } from '../types.ts';

/** GET /api/health: is the database answering? For load balancers and the start check. */
export const health = new Hono<AppEnv>().get('/', async (c) => {
  const { db, database } = c.var.services;
  try {
    await sql`select 1`.execute(db);
    return c.json({ status: 'ok', database: { status: 'up', kind: database.kind } });
  } catch (err) {
    console.error('[health] database check failed:', (err as Error).message);
    return c.json({ status: 'error', database: { status: 'down', kind: database.kind } }, 503);
  }
});
