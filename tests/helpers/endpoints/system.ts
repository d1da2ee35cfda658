/** The endpoint table's system part (tests/helpers/endpoints.ts holds the whole table, in order). */
import { type Endpoint } from './common.ts';

export const HEALTH_AND_CONFIG_ENDPOINTS: Endpoint[] = [
  // --- health and configuration -------------------------------------------------------------
  { method: 'GET', route: '/api/health', auth: 'none', body: 'none', writes: [], example: async () => ({}) },
  { method: 'GET', route: '/api/config/paypal', auth: 'none', body: 'none', writes: [], example: async () => ({}) },
  { method: 'GET', route: '/api/config/public', auth: 'none', body: 'none', writes: [], example: async () => ({}) },
];
