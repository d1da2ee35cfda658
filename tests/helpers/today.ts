import type { TodayView } from '../../contract/backoffice.ts';

/** The Today panel's groups (GET /api/admin/today), in the panel's order: each a count and the list its link opens. */
export const TODAY_GROUPS = [
  'ordersToDeliver',
  'comingPickups',
  'sessionsToday',
  'sessionsThisWeek',
  'nextClasses',
  'failedMails',
  'unpaidGigs',
  'newSignups',
  'newClients',
] as const satisfies readonly (keyof TodayView)[];
