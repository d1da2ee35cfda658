/** The endpoint table's backups part (tests/helpers/endpoints.ts holds the whole table, in order). */
import { plainGet, type Endpoint } from './common.ts';

export const BACKUPS_ENDPOINTS: Endpoint[] = [
  // --- backups (issue 21) ----------------------------------------------------------------------
  plainGet('/api/admin/backups', 'admin'),
];
