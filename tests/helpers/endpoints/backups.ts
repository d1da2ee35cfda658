/** The endpoint table's backups part (tests/helpers/endpoints.ts holds the whole table, in order). */
import { type Endpoint } from './common.ts';

export const BACKUPS_ENDPOINTS: Endpoint[] = [
  // --- backups (issue 21) ----------------------------------------------------------------------
  { method: 'GET', route: '/api/admin/backups', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
];
