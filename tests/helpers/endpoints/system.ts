/** The endpoint table's system part (tests/helpers/endpoints.ts holds the whole table, in order). */
import { plainGet, type Endpoint } from './common.ts';

export const HEALTH_AND_CONFIG_ENDPOINTS: Endpoint[] = [
  // --- health and configuration -------------------------------------------------------------
  plainGet('/api/health', 'none'),
  plainGet('/api/config/paypal', 'none'),
  plainGet('/api/config/public', 'none'),
];
