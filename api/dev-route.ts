/**
 * `astro dev` only (injected by astro.config.mjs): serves /api/* and /dev/* from the Hono app
 * on the dev server's origin. The database is opened once per process and survives hot
 * reloads; the app is rebuilt whenever Vite re-evaluates this module, so API edits apply live.
 */
import type { APIRoute } from 'astro';
import { loadEnv } from './env.ts';
import { prepareDatabase, wire } from './boot.ts';

const env = loadEnv();
const g = globalThis as { __devDatabase?: ReturnType<typeof prepareDatabase> };
const prepared = await (g.__devDatabase ??= prepareDatabase(env));
const { app } = wire(env, prepared.database);

export const prerender = false;
export const ALL: APIRoute = ({ request }) => app.fetch(request);
