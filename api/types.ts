import type { Services } from './services/index.ts';

/** Hono's environment for every route: the services and the per-request values. */
export interface AppEnv {
  Variables: {
    services: Services;
    /** Set by requireUser: the logged-in client's id. */
    userId?: string;
    /** Set by requireAdmin: the logged-in administrator's id. */
    adminId?: string;
  };
}
