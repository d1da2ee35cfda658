/**
 * What every wing's part of the endpoint table (tests/helpers/endpoints.ts) is built from: the
 * shapes of an endpoint, a field and an example, the fixtures that make an example's rows and
 * sessions, and the field builders.
 */
import type { Database } from '../../../db/schema.ts';
import { signToken } from '../../../api/lib/signed-token.ts';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { issueLoginToken } from '../../../api/accounts/login-tokens.ts';
import { insertSignup } from '../../../api/classes/signups.repo.ts';
import { insertOrder } from '../../../api/shop/orders.repo.ts';
import { UNSUBSCRIBE_PURPOSE } from '../../../api/forms/mails.ts';
import { GIVE_BACK_PURPOSE, LEAVE_WAITLIST_PURPOSE } from '../../../api/classes/mails.ts';
import { adminCookie, createUser } from '../auth.ts';
import type { TestServer } from '../server.ts';
import { must } from '../guards.ts';

export type Table = keyof Database & string;
export type Auth = 'none' | 'user' | 'admin';
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * A field of the body (or of the query string).
 * - kind: the JSON types it accepts ('money': a number or a decimal string; 'object': a nested
 *   choice such as how a session is paid; 'any': accepted and ignored).
 * - required: the example without it must be refused.
 * - role: 'text' (default) is stored as typed, so any text a person could type (SQL, HTML, odd
 *   Unicode) may be accepted but must then be found stored exactly; 'match' must equal
 *   something the server knows (a token, a code, an id, an enum value, a class title), so any
 *   altered value is refused; 'lookup' is read but never stored (e.g. the address to
 *   unsubscribe), so an accepted value need not be found anywhere.
 * - lenient: invalid values are dropped rather than refused, by design (the payer's name and
 *   e-mail only stand in for the ones PayPal reports); they must never be stored.
 * - bad: more values of the right JSON type that must be refused (out of range, malformed).
 */
export interface Field {
  kind: 'string' | 'number' | 'boolean' | 'array' | 'object' | 'money' | 'any';
  required?: boolean;
  role?: 'text' | 'match' | 'lookup';
  lenient?: boolean;
  in?: 'body' | 'query';
  bad?: unknown[];
  /** Stored inside a JSON document (a page's content): found JSON-escaped within a column. */
  inJson?: boolean;
}

export interface Example {
  /** Values of the route's :params. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  json?: Record<string, unknown>;
  /** Multipart body (the image upload). */
  form?: () => FormData;
  /** Form-encoded body (RFC 8058 one-click unsubscribe). */
  urlencoded?: string;
  cookie?: string;
  /** More request headers (PayPal's signature headers on a webhook delivery). */
  headers?: Record<string, string>;
}

export interface Endpoint {
  method: Method;
  /** The path as mounted, with :params. */
  route: string;
  auth: Auth;
  /** 'none': the route reads no body (one it is sent is ignored). */
  body: 'json' | 'none' | 'multipart' | 'urlencoded';
  fields?: Record<string, Field>;
  /** Tables a successful request may change. */
  writes: Table[];
  /** Its own body limit, instead of the app's BODY_LIMIT_BYTES. */
  bodyLimit?: number;
  /** What the valid example answers when that is not 2xx (Google sign-in is off in tests). */
  okStatus?: number[];
  example(fx: Fixtures): Promise<Example>;
}

/** A 1×1 PNG, as a canvas signature or an upload. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
export const PNG = Buffer.from(PNG_BASE64, 'base64');
export const SIGNATURE = `data:image/png;base64,${PNG_BASE64}`;
export const CART_COUPON = 'HARDEN15';
export const BOOKING_SESSION = 'Individual Yoga Session (60 min)';

export const pngForm = (bytes: Uint8Array = PNG, type = 'image/png') => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), 'tin.png');
  return form;
};

/** Makes the rows and sessions an example needs, each one new. */
export class Fixtures {
  private n = 0;
  private admin?: string;
  readonly server: TestServer;
  constructor(server: TestServer) {
    this.server = server;
  }

  get db() {
    return this.server.services.db;
  }

  unique(tag: string): string {
    return `${tag}-${Date.now().toString(36)}-${++this.n}`;
  }

  email(tag = 'visitor'): string {
    return `${this.unique(tag)}@example.com`;
  }

  /** A date `days` from today on the teacher's calendar. */
  date(days: number): string {
    return addDays(zonedNow(this.server.env.SITE_TIMEZONE).date, days);
  }

  // Shared by every Fixtures of the test file: they write to one database.
  private static readonly usedOnDay = new Map<string, Set<string>>();

  /** Marks `time` on `date` as used by a slot or class made another way (a weekly slot's second week). */
  takeTime(date: string, time: string): void {
    const used = Fixtures.usedOnDay.get(date) ?? new Set<string>();
    used.add(time);
    Fixtures.usedOnDay.set(date, used);
  }

  /**
   * A time on `date` no other fixture of this run has used, an hour and a minute from the others
   * that day (a class or a booked session takes her time, and a slot it overlaps is not offered:
   * issue 35); past sixteen a day, a minute apart from 22:00.
   */
  private clock(date: string): string {
    ++this.n;
    const used = Fixtures.usedOnDay.get(date) ?? new Set<string>();
    for (let k = 0; ; k++) {
      const minutes = k < 16 ? 5 * 60 + k * 61 : 22 * 60 + (k - 16);
      const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
      if (used.has(time)) continue;
      this.takeTime(date, time);
      return time;
    }
  }

  async adminCookie(): Promise<string> {
    return (this.admin ??= await adminCookie(this.server));
  }

  user(fields: { email?: string; firstName?: string; lastName?: string } = {}) {
    return createUser(this.server, fields);
  }

  /** A class (free), or with `priceCents` a paid workshop (issue 34). */
  async event(fields: { title?: string; days?: number; priceCents?: number } = {}) {
    const date = this.date(fields.days ?? 20 + (this.n % 300));
    const time = this.clock(date);
    const title = fields.title ?? this.unique('Gentle Flow');
    const row = await this.db
      .insertInto('events')
      .values({
        title,
        date,
        time,
        startsAt: zonedInstant(date, time, this.server.env.SITE_TIMEZONE),
        location: 'Studio',
        capacity: 12,
        priceCents: fields.priceCents ?? null,
      })
      .returning(['id', 'title', 'date'])
      .executeTakeFirstOrThrow();
    return row;
  }

  async slot(days = 9) {
    const date = this.date(days + (this.n % 200));
    const time = this.clock(date);
    return this.db
      .insertInto('slots')
      .values({ date, time, startsAt: zonedInstant(date, time, this.server.env.SITE_TIMEZONE) })
      .returning(['id', 'date', 'time'])
      .executeTakeFirstOrThrow();
  }

  async product(fields: { inventory?: number; priceCents?: number; name?: string } = {}) {
    return this.db
      .insertInto('products')
      .values({ name: fields.name ?? this.unique('Sea Salt Tin'), priceCents: fields.priceCents ?? 1800, inventory: fields.inventory ?? 20 })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
  }

  async cartCoupon(): Promise<string> {
    await this.db
      .insertInto('coupons')
      .values({ code: CART_COUPON, percentOff: 15 })
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
    return CART_COUPON;
  }

  async subscriber() {
    return this.db
      .insertInto('subscribers')
      .values({ email: this.email('reader') })
      .returning(['id', 'email'])
      .executeTakeFirstOrThrow();
  }

  /** A sign-up with an accepted waiver and a signature (a returning student's first one), and its event's id. */
  async signup(email = this.email('student')) {
    const event = await this.event();
    const row = must(
      await insertSignup(this.db, {
        eventId: event.id,
        classTitle: event.title,
        date: event.date,
        name: 'Rita Returning',
        email,
        phone: '123-456-7890',
        waiverAccepted: true,
        signaturePng: new Uint8Array(PNG),
      }),
      'row',
    );
    return { id: row.id, email, eventId: event.id };
  }

  async image() {
    const row = await this.db
      .insertInto('images')
      .values({ contentType: 'image/png', bytes: new Uint8Array(PNG), width: null, height: null, placeholder: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** A photo of the yoga slideshow (its image bytes are not a processed one: routes here don't read them). */
  /** A page of hers (a draft unless `published`), with its own slug. */
  async customPage(published = false): Promise<string> {
    const slug = this.unique('page')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-');
    const content = {
      title: 'Chronic Pain Support',
      description: 'Gentle yoga therapy.',
      brand: 'yoga',
      sections: [{ markdown: 'Breath first.' }],
      inNavigation: false,
      inFooter: false,
    };
    await this.db
      .insertInto('pages')
      .values({
        slug,
        kind: 'custom',
        draft: JSON.stringify(content),
        ...(published ? { published: JSON.stringify(content), publishedRevision: 1, publishedAt: new Date() } : {}),
      })
      .execute();
    if (published)
      await this.db
        .insertInto('pageRevisions')
        .values({ slug, n: 1, content: JSON.stringify(content), changed: '["created"]', textHash: 'x' })
        .execute();
    return slug;
  }

  /** A journal post (issue 22), a draft or published as revision 1 (with a subscriber to send it to); its id. */
  async post(published = false): Promise<string> {
    const id = crypto.randomUUID();
    const content = {
      title: 'Slow mornings',
      slug: this.unique('slow-mornings')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-'),
      body: 'Breath first, then coffee.',
      brand: 'yoga',
      tags: ['breathwork'],
    };
    const json = JSON.stringify(content);
    const now = new Date();
    await this.db
      .insertInto('pages')
      .values({
        slug: `post/${id}`,
        kind: 'post',
        draft: json,
        ...(published ? { published: json, publishedRevision: 1, publishedAt: now, firstPublishedAt: now } : {}),
      })
      .execute();
    if (published) {
      await this.db
        .insertInto('pageRevisions')
        .values({ slug: `post/${id}`, n: 1, content: json, changed: '["created"]', textHash: 'x' })
        .execute();
      await this.subscriber();
    }
    return id;
  }

  async galleryPhoto() {
    const imageId = await this.image();
    await this.db.updateTable('images').set({ width: 1, height: 1, placeholder: '' }).where('id', '=', imageId).execute();
    const row = await this.db
      .insertInto('galleryPhotos')
      .values({ gallery: 'yoga', imageId, alt: this.unique('A class at dawn'), position: 1000 + this.n })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async order(isLocalPickup = false) {
    const row = await insertOrder(this.db, {
      paypalOrderId: this.unique('PAYPAL').toUpperCase(),
      payerName: 'Pat Buyer',
      payerEmail: 'pat@example.com',
      itemsTotalCents: 1800,
      discountCents: 0,
      shippingCents: 800,
      totalCents: 2600,
      couponCode: null,
      isLocalPickup,
    });
    return row.id;
  }

  /** A placed order whose PayPal capture is still pending; returns the capture's id. */
  async pendingOrder(): Promise<string> {
    const id = await this.order(false);
    const captureId = this.unique('CAPTURE').toUpperCase();
    await this.db.updateTable('orders').set({ paypalCaptureId: captureId, status: 'payment_pending' }).where('id', '=', id).execute();
    return captureId;
  }

  /** What the buyer does in PayPal's window (the emulator's approve endpoint). */
  async approve(orderId: string): Promise<void> {
    const res = await this.server.api(`/dev/paypal/v2/checkout/orders/${orderId}/approve`, { method: 'POST', json: { givenName: 'Pat', surname: 'Buyer' } });
    if (res.status !== 200) throw new Error(`approve ${orderId}: ${res.status}`);
  }

  /** An approved PayPal order for `slotId`, made by the booking endpoint for `user`. */
  /** A free slot booked for the client with the coupon, far enough ahead to change online (issue 15); its id. */
  async bookedSlot(userId: string): Promise<string> {
    const slot = await this.slot();
    await this.db
      .updateTable('slots')
      .set({
        bookedBy: userId,
        bookedAt: new Date(),
        firstName: 'Ana',
        lastName: 'Lima',
        email: this.email('booked'),
        sessionType: BOOKING_SESSION,
        message: '',
        couponUsed: true,
      })
      .where('id', '=', slot.id)
      .execute();
    return slot.id;
  }

  async slotOrder(user: { cookie: string }, slotId: string, amount = 80): Promise<string> {
    const res = await this.server.api(`/api/bookings/${slotId}/paypal-order`, {
      method: 'POST',
      json: { amount, sessionType: BOOKING_SESSION },
      headers: { cookie: user.cookie },
    });
    if (res.status !== 200) throw new Error(`paypal-order: ${res.status} ${await res.text()}`);
    const { orderID } = (await res.json()) as { orderID: string };
    await this.approve(orderID);
    return orderID;
  }

  /** An approved PayPal order for `cart`, made by the checkout endpoint. */
  async cartOrder(cart: Record<string, unknown>, headers: Record<string, string> = {}): Promise<string> {
    const res = await this.server.api('/api/orders/paypal', { method: 'POST', json: cart, headers });
    if (res.status !== 200) throw new Error(`orders/paypal: ${res.status} ${await res.text()}`);
    const { orderID } = (await res.json()) as { orderID: string };
    await this.approve(orderID);
    return orderID;
  }

  async loginToken(userId: string, purpose: 'login' | 'verify_email'): Promise<string> {
    const token = await issueLoginToken(this.db, userId, purpose);
    if (!token) throw new Error('no login token issued');
    return token;
  }

  /** A newsletter draft (issue 16). */
  async newsletter() {
    const row = await this.db
      .insertInto('newsletters')
      .values({ subject: this.unique('Spring news'), bodyMarkdown: 'Hello **everyone**' })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  unsubscribeToken(email: string): string {
    return signToken(this.server.env.APP_SECRET, UNSUBSCRIBE_PURPOSE, email);
  }

  /** The give-back link's token of a new sign-up (issue 15). */
  async giveBackToken(email?: string): Promise<string> {
    return signToken(this.server.env.APP_SECRET, GIVE_BACK_PURPOSE, (await this.signup(email)).id);
  }

  /** A class whose one place is taken: its waitlist is open. */
  async fullClass() {
    const event = await this.event();
    await this.db.updateTable('events').set({ capacity: 1 }).where('id', '=', event.id).execute();
    await insertSignup(this.db, {
      eventId: event.id,
      classTitle: event.title,
      date: event.date,
      name: 'Sam Seated',
      email: this.email('seated'),
      waiverAccepted: true,
      signaturePng: null,
    });
    return event;
  }

  /** The leave link's token of a new waitlist entry (issue 15). */
  async leaveWaitlistToken(): Promise<string> {
    const event = await this.fullClass();
    const row = await this.db
      .insertInto('classWaitlist')
      .values({ eventId: event.id, name: 'Wren Waiting', email: this.email('waiting'), signaturePng: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return signToken(this.server.env.APP_SECRET, LEAVE_WAITLIST_PURPOSE, row.id);
  }
}

export const text = (extra: Partial<Field> = {}): Field => ({ kind: 'string', required: true, ...extra });
/** What deleting an account may change (issue 23, api/accounts/erase-account.ts). */
export const ERASE_WRITES: Table[] = [
  'users',
  'userSessions',
  'loginTokens',
  'slots',
  'bookingCancellations',
  'paymentAttempts',
  'bookingOrders',
  'orders',
  'classSignups',
  'classWaitlist',
  'subscribers',
  'newsletterOutbox',
  'contactMessages',
  'bookingRequests',
  'mails',
  'intakeAnswers',
  'sessionNotes',
  'privateAccessLog',
];
export const optionalText = (extra: Partial<Field> = {}): Field => ({ kind: 'string', ...extra });
export const match = (extra: Partial<Field> = {}): Field => ({ kind: 'string', required: true, role: 'match', ...extra });
export const badDates = ['2031-02-30', '31-01-2031', '2031-1-1', '', '2031-01-01T00:00:00Z'];
export const badTimes = ['24:00', '7:00', '12:60', '', '12:00:00'];

/**
 * A client's own route with no body (`/api/user/:id/…`), called by that client: the example is
 * a new client's session and id.
 */
export const ownRoute = (method: Method, route: string, writes: Table[]): Endpoint => ({
  method,
  route,
  auth: 'user',
  body: 'none',
  writes,
  example: async (fx) => {
    const user = await fx.user();
    return { cookie: user.cookie, params: { id: user.id } };
  },
});

/** The admin's route about one client with no body (`/api/admin/users/:id/…`): the example is a new client's id. */
export const aboutClient = (method: Method, route: string, writes: Table[]): Endpoint => ({
  method,
  route,
  auth: 'admin',
  body: 'none',
  writes,
  example: async (fx) => ({ params: { id: (await fx.user()).id } }),
});

/**
 * A route a mailed link's token opens, for anyone: a GET reads the token from its query (what the
 * link is about), a POST from its JSON body (doing what the link offers). The example's token is
 * `token`'s, fresh.
 */
export const byToken = (method: 'GET' | 'POST', route: string, writes: Table[], token: (fx: Fixtures) => Promise<string> | string): Endpoint =>
  method === 'GET'
    ? {
        method,
        route,
        auth: 'none',
        body: 'none',
        fields: { token: match({ in: 'query' }) },
        writes,
        example: async (fx) => ({ query: { token: await token(fx) } }),
      }
    : { method, route, auth: 'none', body: 'json', fields: { token: match() }, writes, example: async (fx) => ({ json: { token: await token(fx) } }) };

/** A GET that needs nothing but its session (or none): no params, no query, no body, writes nothing. */
export const plainGet = (route: string, auth: Auth): Endpoint => ({ method: 'GET', route, auth, body: 'none', writes: [], example: async () => ({}) });

/**
 * A paged admin list's query (issue 36, contract/paging.ts): a page size of 1..200, a cursor only
 * as the list gave it, a search read and never stored; with the list's own filters (`extra`).
 */
export const pagedList = (route: string, extra: Record<string, Field> = {}, query: Record<string, string> = {}): Endpoint => ({
  method: 'GET',
  route,
  auth: 'admin',
  body: 'none',
  fields: {
    limit: optionalText({ in: 'query', role: 'match', bad: ['0', '201', 'ten', '-1', '1.5', '1e2'] }),
    cursor: optionalText({ in: 'query', role: 'match', bad: ['x', 'WyJ4Il0', 'WyIyMDI2LTAxLTAxIiwiYSJd', '!!'] }),
    q: optionalText({ in: 'query', role: 'lookup' }),
    ...extra,
  },
  writes: [],
  example: async () => ({ query }),
});

/** The "since" filter of the Today panel's links (an ISO instant). */
export const sinceField = () => optionalText({ in: 'query', role: 'match', bad: ['yesterday', '2026-13-01T00:00:00Z'] });

/** The optional month range of her books' reports (`from`/`to`, YYYY-MM; one alone is refused). */
export const monthRange = (): Record<string, Field> => ({
  from: optionalText({ in: 'query', role: 'match', bad: ['2025-13', '2025-1', '1999-12', '2025-06-01'] }),
  to: optionalText({ in: 'query', role: 'match', bad: ['2024-12', '2101-01'] }),
});
