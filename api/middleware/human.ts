import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from '../types.ts';
import { clientAddress } from './client.ts';

/** Refuses (400) unless the human-check token was issued for `action` and judged human. */
export async function verifyHuman(c: Context<AppEnv>, token: unknown, action: string): Promise<void> {
  const { humanCheck, env } = c.var.services;
  const ip = clientAddress(c, env);
  if (!(await humanCheck.verify(token, action, ip === 'local' ? undefined : ip))) {
    throw new HTTPException(400, { message: "Verification failed: we couldn't verify that you're human. Please try again." });
  }
}
