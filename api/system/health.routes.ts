import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { pingDatabase } from './health.repo.ts';

/** GET /api/health: is the database answering? For load balancers and the start check. */
export const health = new Hono<AppEnv>().get('/', async (c) => {
  const { db, database } = c.var.services;
  try {
    await pingDatabase(db);
    return c.json({ status: 'ok', database: { status: 'up', kind: database.kind } });
  } catch (err) {
    console.error('[health] database check failed:', (err as Error).message);
    return c.json({ status: 'error', database: { status: 'down', kind: database.kind } }, 503);
  }
});
