/**
 * The admin lists' filters as addresses (issue 20). The Today panel links each count to its list
 * narrowed to exactly what it counted, and the list reads the same parameters back, so the number
 * on the panel is the number of rows she finds. One module spells both sides: the server builds
 * the links (GET /api/admin/today), the islands read them. Zod-free, no imports: both may use it.
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const STATUSES = ['payment_pending', 'payment_failed', 'paid', 'ready_for_pickup', 'shipped', 'picked_up', 'refunded'] as const;
type Status = (typeof STATUSES)[number];

const instant = (at: Date | string) => new Date(at).toISOString();
/** An id as the lists' rows carry it (uuids; a newsletter's too). */
const ID = /^[\w-]{1,100}$/;

export const adminLinks = {
  /** Orders with one status: /admin/orders?status=paid */
  orders: (status: Status) => `/admin/orders?status=${status}`,
  /** Booked sessions, upcoming and passed, whose date on her calendar is from..to (YYYY-MM-DD, inclusive). */
  sessions: (from: string, to: string) => `/admin/bookings?from=${from}&to=${to}`,
  /** Classes that have not started yet and fall on or before `to` (YYYY-MM-DD). */
  classesAhead: (to: string) => `/admin/dashboard?upcoming=1&to=${to}#events`,
  /** Class sign-ups made since an instant. */
  signupsSince: (since: Date | string) => `/admin/signups?since=${encodeURIComponent(instant(since))}`,
  /** Clients registered since an instant. */
  clientsSince: (since: Date | string) => `/admin/users?since=${encodeURIComponent(instant(since))}`,
  /**
   * Mails that failed (issue 29: one group): the Mail page lists the mails that failed or were
   * skipped (issue 21) and the newsletters some of whose mails failed.
   */
  failedMails: () => '/admin/mail',
  /** Newsletters some of whose mails failed. */
  failedNewsletters: () => '/admin/newsletter?failed=1',
  /** Pickup orders still to be handed over: paid (to be made ready) or ready for pickup (issue 30). */
  comingPickups: () => '/admin/orders?pickup=coming',
  /** Classes taught and not paid: the Gigs page lists them first, with their age. */
  unpaidGigs: () => '/admin/gigs',
  /** Her Week from a day (issue 35): a free meeting, which is on no list, is found there. */
  week: (day: string) => `/admin/week?from=${day}`,
  /** A client's page (issue 47: a refund owed to her is shown there). */
  client: (id: string) => `/admin/client?id=${encodeURIComponent(id)}`,
  /** Her clients: refunds owed (issue 47) are each on their client's page, a card's on her gift cards. */
  refundsOwed: () => '/admin/users',
  /** Her gift cards. */
  giftCards: () => '/admin/gift-cards',
  /** Tasting requests (issue 34): the Tastings page lists the ones to quote first. */
  tastingRequests: () => '/admin/tastings',
  /** Her products (issue 48: those missing label facts are each a tap from their product there). */
  chocolates: () => '/admin/chocolates',
  /** Her food licence on the Settings page (issue 48): its number, business name, address and phone. */
  foodLicence: () => '/admin/settings#food-licence',
  /** Her postal address (issue 48): the Newsletter page shows the one every newsletter carries, and sets it. */
  postalAddress: () => '/admin/newsletter',
  /**
   * One item of a list (issue 30): the list's address, its filter kept, with `focus=<id>`; the
   * page scrolls that row into view once its data is drawn, opens its month and marks it. The
   * list's own anchor (#events) goes: the row is where the page lands.
   */
  item: (list: string, id: string) => {
    const path = list.replace(/#.*$/, '');
    return `${path}${path.includes('?') ? '&' : '?'}focus=${encodeURIComponent(id)}`;
  },
} as const;

/** What a list's address asks for; a parameter that doesn't parse is ignored, as if absent. */
export interface ListFilter {
  status?: Status;
  /** YYYY-MM-DD, inclusive. */
  from?: string;
  to?: string;
  /** Only what has not started yet. */
  upcoming?: boolean;
  /** ISO instant: made or registered at or after. */
  since?: string;
  /** Only newsletters with failed mails. */
  failed?: boolean;
  /** Only pickup orders still to be handed over (isComingPickup). */
  pickup?: 'coming';
  /** The id of the row to scroll into view and mark (adminLinks.item). */
  focus?: string;
}

export function readListFilter(search: string): ListFilter {
  const q = new URLSearchParams(search);
  const filter: ListFilter = {};
  const status = q.get('status');
  if (status && (STATUSES as readonly string[]).includes(status)) filter.status = status as Status;
  const from = q.get('from');
  if (from && DAY.test(from)) filter.from = from;
  const to = q.get('to');
  if (to && DAY.test(to)) filter.to = to;
  if (q.get('upcoming') === '1') filter.upcoming = true;
  const since = q.get('since');
  if (since && !Number.isNaN(Date.parse(since))) filter.since = new Date(since).toISOString();
  if (q.get('failed') === '1') filter.failed = true;
  if (q.get('pickup') === 'coming') filter.pickup = 'coming';
  const focus = q.get('focus');
  if (focus && ID.test(focus)) filter.focus = focus;
  return filter;
}

/** Whether a calendar date (YYYY-MM-DD) is within the filter's from..to. */
export const inDateRange = (date: string, f: ListFilter) => (!f.from || date >= f.from) && (!f.to || date <= f.to);

/** Whether an instant is at or after the filter's `since`. */
export const isSince = (at: string, f: ListFilter) => !f.since || Date.parse(at) >= Date.parse(f.since);

/** A pickup order still to be handed over: paid (to make ready) or ready for pickup (issue 30). */
export const isComingPickup = (o: { status: string; isLocalPickup: boolean }) => o.isLocalPickup && (o.status === 'paid' || o.status === 'ready_for_pickup');
