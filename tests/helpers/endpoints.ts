/**
 * Every endpoint the app mounts under /api (api/app.ts and api/routes/*.ts), each with a valid
 * example request and what it needs: how it authenticates, which body it takes, its fields and
 * the tables a write may change. The hardening tests walk this table; a route added to the app
 * without a line here fails the coverage check in tests/api/system/hardening-bad-input.test.ts.
 *
 * Left out on purpose: the stand-ins' own pages under /dev (the mailbox page and the PayPal
 * emulator), which are not the product's API and are never mounted in production.
 *
 * An example is built from fresh fixtures every time it is asked for (`example(fx)`), so a
 * probe that was wrongly accepted can't spoil the next one and the final valid request finds
 * its slot free, its token unused and its product in stock.
 */
import type { Database } from '../../db/schema.ts';
import { signToken } from '../../api/lib/signed-token.ts';
import { addDays, zonedInstant, zonedNow } from '../../api/lib/time.ts';
import { issueLoginToken } from '../../api/accounts/login-tokens.ts';
import { insertSignup } from '../../api/classes/signups.repo.ts';
import { insertOrder } from '../../api/shop/orders.repo.ts';
import { UNSUBSCRIBE_PURPOSE } from '../../api/forms/mails.ts';
import { GIVE_BACK_PURPOSE, LEAVE_WAITLIST_PURPOSE } from '../../api/classes/mails.ts';
import { emulatorWebhookHeaders } from '../../api/services/payments/emulator.ts';
import { adminCookie, createUser } from './auth.ts';
import { deletionToken } from '../../api/accounts/deletion-mails.ts';
import { DEV_WEBHOOK_SECRET, mailEventPayload, signMailEvent } from '../../api/mail/resend-webhook.ts';
import type { TestServer } from './server.ts';

export type Table = keyof Database & string;
export type Auth = 'none' | 'user' | 'admin';
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * A field of the body (or of the query string).
 * - kind: the JSON types it accepts ('money': a number or a decimal string; 'any': accepted and ignored).
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
  kind: 'string' | 'number' | 'boolean' | 'array' | 'money' | 'any';
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

  /** A time of day no other fixture of this run has used. */
  private clock(): string {
    const n = ++this.n;
    return `${String(6 + (Math.floor(n / 60) % 14)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}`;
  }

  async adminCookie(): Promise<string> {
    return (this.admin ??= await adminCookie(this.server));
  }

  user(fields: { email?: string; firstName?: string; lastName?: string } = {}) {
    return createUser(this.server, fields);
  }

  async event(fields: { title?: string; days?: number } = {}) {
    const date = this.date(fields.days ?? 20 + (this.n % 300));
    const time = this.clock();
    const title = fields.title ?? this.unique('Gentle Flow');
    const row = await this.db
      .insertInto('events')
      .values({ title, date, time, startsAt: zonedInstant(date, time, this.server.env.SITE_TIMEZONE), location: 'Studio', capacity: 12 })
      .returning(['id', 'title', 'date'])
      .executeTakeFirstOrThrow();
    return row;
  }

  async slot(days = 9) {
    const date = this.date(days + (this.n % 200));
    const time = this.clock();
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

  /** A sign-up with an accepted waiver and a signature (a returning student's first one). */
  async signup(email = this.email('student')) {
    const event = await this.event();
    const row = await insertSignup(this.db, {
      eventId: event.id,
      classTitle: event.title,
      date: event.date,
      name: 'Rita Returning',
      email,
      phone: '123-456-7890',
      waiverAccepted: true,
      signaturePng: new Uint8Array(PNG),
    });
    return { id: row!.id, email };
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

const text = (extra: Partial<Field> = {}): Field => ({ kind: 'string', required: true, ...extra });
/** What deleting an account may change (issue 23, api/accounts/erase-account.ts). */
const ERASE_WRITES: Table[] = [
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
/** Answers to the seeded intake form (contract/practice.ts), every required one given. */
const intakeAnswersExample = () => ({
  conditions: 'None',
  injuries: 'None',
  pregnant: false,
  hopes: 'A calmer back',
  'emergency-contact': 'Sam 555-0100',
  consent: true,
  signature: SIGNATURE,
});
const optionalText = (extra: Partial<Field> = {}): Field => ({ kind: 'string', ...extra });
const match = (extra: Partial<Field> = {}): Field => ({ kind: 'string', required: true, role: 'match', ...extra });
const badDates = ['2031-02-30', '31-01-2031', '2031-1-1', '', '2031-01-01T00:00:00Z'];
const badTimes = ['24:00', '7:00', '12:60', '', '12:00:00'];

/** A location of her books (issue 24), new each time. */
async function bookLocation(fx: Fixtures): Promise<string> {
  const row = await fx.db
    .insertInto('locations')
    .values({ name: fx.unique('Studio'), roundTripTenthMiles: 124 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** One entry of a recurring gig (issue 24), new each time. */
async function bookGig(fx: Fixtures): Promise<string> {
  const row = await fx.db
    .insertInto('gigs')
    .values({
      seriesId: fx.unique('series'),
      date: '2026-03-03',
      time: '18:00',
      className: 'Vinyasa',
      locationId: await bookLocation(fx),
      rateCents: 6000,
      frequency: 'weekly',
      repeatUntil: '2026-03-31',
      paymentMethod: 'cash',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Every /api endpoint of api/app.ts. */
export const ENDPOINTS: Endpoint[] = [
  // --- health and configuration -------------------------------------------------------------
  { method: 'GET', route: '/api/health', auth: 'none', body: 'none', writes: [], example: async () => ({}) },
  { method: 'GET', route: '/api/config/paypal', auth: 'none', body: 'none', writes: [], example: async () => ({}) },
  { method: 'GET', route: '/api/config/public', auth: 'none', body: 'none', writes: [], example: async () => ({}) },

  // --- visitors' forms ----------------------------------------------------------------------
  {
    method: 'POST',
    route: '/api/publicBookings/request',
    auth: 'none',
    body: 'json',
    fields: {
      name: text(),
      email: text(),
      phone: text(),
      sessionType: match(),
      message: optionalText(),
      captchaToken: match(),
    },
    writes: ['bookingRequests', 'mails'],
    example: async (fx) => ({
      json: {
        name: 'Mia Rossi',
        email: fx.email('meeting'),
        phone: '123-456-7890',
        sessionType: 'private yoga',
        message: 'I would like to start gently.',
        captchaToken: 'dev:book_request',
      },
    }),
  },
  {
    method: 'POST',
    route: '/api/contact',
    auth: 'none',
    body: 'json',
    fields: { name: text(), email: text(), message: text(), recaptchaToken: match() },
    writes: ['contactMessages', 'mails'],
    example: async (fx) => ({
      json: { name: 'Mia Rossi', email: fx.email('contact'), message: 'Do you teach on Sundays?', recaptchaToken: 'dev:contact_form_submit' },
    }),
  },
  {
    method: 'POST',
    route: '/api/subscribers/subscribe',
    auth: 'none',
    body: 'json',
    fields: { email: text() },
    writes: ['subscribers', 'mails'],
    example: async (fx) => ({ json: { email: fx.email('news') } }),
  },
  {
    method: 'POST',
    route: '/api/subscribers/unsubscribe',
    auth: 'none',
    body: 'json',
    // {email} or {token}: the answer is the same whether or not the address was on the list.
    fields: { email: text({ role: 'lookup' }), token: optionalText({ role: 'match' }) },
    writes: ['subscribers'],
    example: async (fx) => ({ json: { email: (await fx.subscriber()).email } }),
  },
  {
    method: 'POST',
    route: '/api/subscribers/one-click',
    auth: 'none',
    body: 'urlencoded',
    fields: { token: match({ in: 'query' }) },
    writes: ['subscribers'],
    example: async (fx) => ({ query: { token: fx.unsubscribeToken((await fx.subscriber()).email) }, urlencoded: 'List-Unsubscribe=One-Click' }),
  },
  {
    method: 'POST',
    route: '/api/signup',
    auth: 'none',
    body: 'json',
    fields: {
      name: text(),
      email: text(),
      phone: text(),
      classTitle: match(),
      date: match({ bad: badDates }),
      waiver: { kind: 'boolean', required: true, bad: [false] },
      signature: match({ bad: ['data:image/png;base64,AAAA', 'data:image/jpeg;base64,/9j/4AAQ', `data:image/png;base64,${'A'.repeat(300_000)}`] }),
      recaptchaToken: match(),
    },
    writes: ['classSignups', 'mails'],
    example: async (fx) => {
      const event = await fx.event();
      return {
        json: {
          name: 'Nora Novak',
          email: fx.email('student'),
          phone: '123-456-7890',
          classTitle: event.title,
          date: event.date,
          waiver: true,
          signature: SIGNATURE,
          recaptchaToken: 'dev:signup_form_submit',
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/api/check-student',
    auth: 'none',
    body: 'json',
    fields: { email: text(), classTitle: match(), date: match({ bad: badDates }) },
    writes: ['classSignups', 'mails'],
    example: async (fx) => {
      const student = await fx.signup();
      const event = await fx.event();
      return { json: { email: student.email, classTitle: event.title, date: event.date } };
    },
  },
  // issue 15: giving a class place back, the waitlist
  {
    method: 'GET',
    route: '/api/class-places',
    auth: 'none',
    body: 'none',
    fields: { token: match({ in: 'query' }) },
    writes: [],
    example: async (fx) => ({ query: { token: await fx.giveBackToken() } }),
  },
  {
    method: 'POST',
    route: '/api/class-places/cancel',
    auth: 'none',
    body: 'json',
    fields: { token: match() },
    writes: ['classSignups', 'classWaitlist', 'mails'],
    example: async (fx) => ({ json: { token: await fx.giveBackToken() } }),
  },
  {
    method: 'POST',
    route: '/api/waitlist',
    auth: 'none',
    body: 'json',
    fields: {
      name: text(),
      email: text(),
      phone: text(),
      classTitle: match(),
      date: match({ bad: badDates }),
      waiver: { kind: 'boolean', required: true, bad: [false] },
      signature: match({ bad: ['data:image/png;base64,AAAA', 'data:image/jpeg;base64,/9j/4AAQ', `data:image/png;base64,${'A'.repeat(300_000)}`] }),
      recaptchaToken: match(),
    },
    writes: ['classWaitlist', 'classSignups', 'mails'],
    example: async (fx) => {
      const event = await fx.fullClass();
      return {
        json: {
          name: 'Wes Waiting',
          email: fx.email('waiting'),
          phone: '123-456-7890',
          classTitle: event.title,
          date: event.date,
          waiver: true,
          signature: SIGNATURE,
          recaptchaToken: 'dev:waitlist_form_submit',
        },
      };
    },
  },
  {
    method: 'GET',
    route: '/api/waitlist/entry',
    auth: 'none',
    body: 'none',
    fields: { token: match({ in: 'query' }) },
    writes: [],
    example: async (fx) => ({ query: { token: await fx.leaveWaitlistToken() } }),
  },
  {
    method: 'POST',
    route: '/api/waitlist/leave',
    auth: 'none',
    body: 'json',
    fields: { token: match() },
    writes: ['classWaitlist'],
    example: async (fx) => ({ json: { token: await fx.leaveWaitlistToken() } }),
  },
  {
    method: 'GET',
    route: '/api/user/:id/classes',
    auth: 'user',
    body: 'none',
    writes: [],
    example: async (fx) => {
      const user = await fx.user();
      await fx.signup(user.email);
      return { cookie: user.cookie, params: { id: user.id } };
    },
  },
  {
    method: 'POST',
    route: '/api/user/:id/classes/:signupId/cancel',
    auth: 'user',
    body: 'none',
    writes: ['classSignups', 'classWaitlist', 'mails'],
    example: async (fx) => {
      const user = await fx.user();
      return { cookie: user.cookie, params: { id: user.id, signupId: (await fx.signup(user.email)).id } };
    },
  },
  { method: 'GET', route: '/api/admin/waitlist', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },

  // --- the admin's session, clients and lists ------------------------------------------------
  {
    method: 'POST',
    route: '/api/admin/login',
    auth: 'none',
    body: 'json',
    fields: { email: match(), password: match(), recaptchaToken: match() },
    writes: ['adminSessions'],
    example: async (fx) => ({ json: { email: fx.server.env.ADMIN_EMAIL, password: fx.server.env.ADMIN_PASSWORD, recaptchaToken: 'dev:admin_login' } }),
  },
  { method: 'GET', route: '/api/admin/verify', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  { method: 'POST', route: '/api/admin/refresh-token', auth: 'admin', body: 'none', writes: ['adminSessions'], example: async () => ({}) },
  { method: 'POST', route: '/api/admin/logout', auth: 'none', body: 'none', writes: ['adminSessions'], example: async () => ({}) },
  { method: 'GET', route: '/api/admin/users', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  {
    method: 'DELETE',
    route: '/api/admin/users/:id',
    auth: 'admin',
    body: 'none',
    // The Clients list's Delete is the whole erasure (issue 29), not the user row alone.
    writes: ERASE_WRITES,
    example: async (fx) => ({ params: { id: (await fx.user()).id } }),
  },
  { method: 'GET', route: '/api/admin/subscribers', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  {
    method: 'DELETE',
    route: '/api/admin/subscribers/:id',
    auth: 'admin',
    body: 'none',
    writes: ['subscribers'],
    example: async (fx) => ({ params: { id: (await fx.subscriber()).id } }),
  },
  { method: 'GET', route: '/api/admin/signups', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  {
    method: 'GET',
    route: '/api/admin/signups/:id/signature',
    auth: 'admin',
    body: 'none',
    writes: [],
    example: async (fx) => ({ params: { id: (await fx.signup()).id } }),
  },
  {
    method: 'DELETE',
    route: '/api/signup/:id',
    auth: 'admin',
    body: 'none',
    // A freed place goes to the first on the waitlist, who is mailed (issue 15).
    writes: ['classSignups', 'classWaitlist', 'mails'],
    example: async (fx) => ({ params: { id: (await fx.signup()).id } }),
  },

  // --- events (group classes) ----------------------------------------------------------------
  { method: 'GET', route: '/api/events', auth: 'none', body: 'none', writes: [], example: async () => ({}) },
  {
    method: 'POST',
    route: '/api/admin/events',
    auth: 'admin',
    body: 'json',
    fields: {
      title: text(),
      date: match({ bad: badDates }),
      time: match({ bad: badTimes }),
      location: optionalText(),
      signUpLink: optionalText({ bad: ['javascript:alert(1)', 'ftp://example.com', 'data:text/html,<script>alert(1)</script>', '//evil.example'] }),
      isExternal: { kind: 'boolean' },
      capacity: { kind: 'number', bad: [0, -1, 1.5, 501, 1e308] },
      repeat: optionalText({ role: 'match', bad: ['daily', 'yearly'] }),
    },
    writes: ['events'],
    example: async (fx) => ({
      json: {
        title: fx.unique('Morning Flow'),
        date: fx.date(40),
        time: '07:30',
        location: 'Studio',
        signUpLink: '',
        isExternal: false,
        capacity: 12,
        repeat: 'none',
      },
    }),
  },
  {
    method: 'PUT',
    route: '/api/events/:id',
    auth: 'admin',
    body: 'json',
    // Every field is optional: an omitted one keeps its value.
    fields: {
      title: optionalText(),
      date: optionalText({ role: 'match', bad: badDates }),
      time: optionalText({ role: 'match', bad: badTimes }),
      location: optionalText(),
      signUpLink: optionalText({ bad: ['javascript:alert(1)', 'mailto:a@example.com'] }),
      isExternal: { kind: 'boolean' },
      capacity: { kind: 'number', bad: [0, -5, 2.5, 10_000] },
    },
    // More places go to the class's waitlist, who are mailed (issue 15).
    writes: ['events', 'classSignups', 'classWaitlist', 'mails'],
    example: async (fx) => ({
      params: { id: (await fx.event()).id },
      json: {
        title: fx.unique('Renamed Flow'),
        date: fx.date(45),
        time: '18:15',
        location: 'Park',
        signUpLink: 'https://example.com/join',
        isExternal: false,
        capacity: 10,
      },
    }),
  },
  {
    method: 'DELETE',
    route: '/api/events/bulk',
    auth: 'admin',
    body: 'json',
    fields: { eventIds: { kind: 'array', required: true, bad: [[], [1], [''], ['../x'], ["' OR 1=1 --"], Array.from({ length: 501 }, (_, i) => `id${i}`)] } },
    writes: ['events', 'classSignups'],
    example: async (fx) => ({ json: { eventIds: [(await fx.event()).id] } }),
  },
  {
    method: 'GET',
    route: '/api/class-status',
    auth: 'none',
    body: 'none',
    fields: { classTitle: match({ in: 'query' }), date: match({ in: 'query', bad: badDates }) },
    writes: [],
    example: async (fx) => {
      const event = await fx.event();
      return { query: { classTitle: event.title, date: event.date } };
    },
  },

  // --- slots and booked sessions -------------------------------------------------------------
  {
    method: 'POST',
    route: '/api/bookings',
    auth: 'admin',
    body: 'json',
    fields: {
      slots: {
        kind: 'array',
        required: true,
        bad: [
          [],
          [{}],
          [null],
          ['2031-01-01 10:00'],
          [{ date: '2031-02-30', time: '10:00' }],
          [{ date: '2031-03-01', time: '25:00' }],
          [{ date: '2001-03-01', time: '10:00' }],
          Array.from({ length: 367 }, () => ({ date: '2031-03-01', time: '10:00' })),
        ],
      },
    },
    writes: ['slots'],
    example: async (fx) => ({
      json: {
        slots: [
          { date: fx.date(60 + (Date.now() % 200)), time: '10:00' },
          { date: fx.date(61 + (Date.now() % 200)), time: '11:00' },
        ],
      },
    }),
  },
  { method: 'GET', route: '/api/bookings', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  // One slot's place (issue 20): an address or an http(s) link; '' for none, so not "required".
  {
    method: 'PUT',
    route: '/api/bookings/:id/place',
    auth: 'admin',
    body: 'json',
    fields: { place: optionalText({ bad: ['javascript://alert(1)', 'ftp://files.example.com/x', 'Room 1\nRoom 2'] }) },
    writes: ['slots'],
    example: async (fx) => ({ params: { id: (await fx.slot()).id }, json: { place: 'Studio 3, 12 Alder St' } }),
  },
  {
    method: 'GET',
    route: '/api/bookings?userId',
    auth: 'user',
    body: 'none',
    fields: { userId: match({ in: 'query' }) },
    writes: [],
    example: async (fx) => {
      const user = await fx.user();
      return { cookie: user.cookie, query: { userId: user.id } };
    },
  },
  {
    method: 'DELETE',
    route: '/api/bookings/:id',
    auth: 'admin',
    body: 'none',
    writes: ['slots'],
    example: async (fx) => ({ params: { id: (await fx.slot()).id } }),
  },
  {
    method: 'POST',
    route: '/api/bookings/validate-coupon',
    auth: 'user',
    body: 'json',
    fields: { code: match() },
    writes: [],
    example: async (fx) => ({ cookie: (await fx.user()).cookie, json: { code: fx.server.env.BOOKING_COUPON.toLowerCase() } }),
  },
  {
    method: 'POST',
    route: '/api/bookings/:slotId/paypal-order',
    auth: 'user',
    body: 'json',
    fields: {
      amount: { kind: 'money', required: true, bad: [49.99, 200.01, 0, -80, '80.123', '8e1', 'NaN', 'Infinity', '0x50', ' ', 1e308] },
      sessionType: match(),
    },
    // The order is recorded, so an approval never finalized can be found again (issue 20).
    writes: ['bookingOrders'],
    example: async (fx) => ({ cookie: (await fx.user()).cookie, params: { slotId: (await fx.slot()).id }, json: { amount: 80, sessionType: BOOKING_SESSION } }),
  },
  {
    method: 'PUT',
    route: '/api/bookings/:slotId/book',
    auth: 'user',
    body: 'json',
    fields: {
      userId: match(),
      firstName: text(),
      lastName: text(),
      // Checked, never stored: the confirmation goes to the account's own address.
      email: text({ role: 'lookup' }),
      sessionType: match(),
      message: optionalText(),
      paypalOrderId: match(),
      couponCode: optionalText({ role: 'match' }),
    },
    writes: ['slots', 'paymentAttempts', 'mails'],
    example: async (fx) => {
      const user = await fx.user({ firstName: 'Ana', lastName: 'Lima' });
      const slot = await fx.slot();
      const paypalOrderId = await fx.slotOrder(user, slot.id);
      return {
        cookie: user.cookie,
        params: { slotId: slot.id },
        json: {
          userId: user.id,
          firstName: 'Ana',
          lastName: 'Lima',
          email: user.email,
          sessionType: BOOKING_SESSION,
          message: 'A sore shoulder.',
          paypalOrderId,
        },
      };
    },
  },

  // --- client accounts -----------------------------------------------------------------------
  {
    method: 'POST',
    route: '/api/user/register',
    auth: 'none',
    body: 'json',
    fields: { firstName: text(), lastName: text(), email: text(), recaptchaToken: text() },
    writes: ['users', 'loginTokens', 'mails'],
    example: async (fx) => ({ json: { firstName: 'Vera', lastName: 'Link', email: fx.email('register'), recaptchaToken: 'dev:register' } }),
  },
  {
    method: 'POST',
    route: '/api/user/verify-email',
    auth: 'none',
    body: 'json',
    fields: { token: match() },
    writes: ['users', 'userSessions', 'loginTokens'],
    example: async (fx) => ({ json: { token: await fx.loginToken((await fx.user()).id, 'verify_email') } }),
  },
  {
    method: 'POST',
    route: '/api/user/login',
    auth: 'none',
    body: 'json',
    fields: { email: text() },
    writes: ['loginTokens', 'mails'],
    example: async (fx) => ({ json: { email: (await fx.user()).email } }),
  },
  {
    method: 'POST',
    route: '/api/user/verify-login',
    auth: 'none',
    body: 'json',
    fields: { token: match() },
    writes: ['users', 'userSessions', 'loginTokens'],
    example: async (fx) => ({ json: { token: await fx.loginToken((await fx.user()).id, 'login') } }),
  },
  // SPEC.md section 7 sends {token}; it is ignored, the cookie decides.
  {
    method: 'POST',
    route: '/api/user/validate-token',
    auth: 'user',
    body: 'none',
    writes: ['userSessions'],
    example: async (fx) => ({ cookie: (await fx.user()).cookie }),
  },
  {
    method: 'POST',
    route: '/api/user/refresh-token',
    auth: 'user',
    body: 'none',
    writes: ['userSessions'],
    example: async (fx) => ({ cookie: (await fx.user()).cookie }),
  },
  { method: 'POST', route: '/api/user/logout', auth: 'none', body: 'none', writes: ['userSessions'], example: async () => ({}) },
  // Google sign-in is off in tests (no GOOGLE_CLIENT_ID): 404 with a message.
  { method: 'GET', route: '/api/user/auth/google', auth: 'none', body: 'none', writes: [], okStatus: [404], example: async () => ({}) },
  // A browser navigation: every failure is a redirect to /login, never an error page.
  {
    method: 'GET',
    route: '/api/user/auth/google/callback',
    auth: 'none',
    body: 'none',
    fields: { code: match({ in: 'query' }), state: match({ in: 'query' }) },
    writes: ['users', 'userSessions'],
    okStatus: [302],
    example: async () => ({ query: { code: '4/0AbCdEf', state: 'state-123' } }),
  },
  // Issue 15: a client changes their own session; the private calendar feed.
  {
    method: 'POST',
    route: '/api/bookings/:slotId/cancel',
    auth: 'user',
    body: 'none',
    writes: ['slots', 'bookingCancellations', 'mails'],
    example: async (fx) => {
      const user = await fx.user();
      return { cookie: user.cookie, params: { slotId: await fx.bookedSlot(user.id) } };
    },
  },
  {
    method: 'POST',
    route: '/api/bookings/:slotId/reschedule',
    auth: 'user',
    body: 'json',
    fields: { toSlotId: match() },
    writes: ['slots', 'paymentAttempts', 'mails'],
    example: async (fx) => {
      const user = await fx.user();
      return { cookie: user.cookie, params: { slotId: await fx.bookedSlot(user.id) }, json: { toSlotId: (await fx.slot()).id } };
    },
  },
  {
    method: 'GET',
    route: '/api/user/:id/calendar-feed',
    auth: 'user',
    body: 'none',
    writes: [],
    example: async (fx) => {
      const user = await fx.user();
      return { cookie: user.cookie, params: { id: user.id } };
    },
  },
  {
    method: 'POST',
    route: '/api/user/:id/calendar-feed',
    auth: 'user',
    body: 'none',
    writes: ['users'],
    example: async (fx) => {
      const user = await fx.user();
      return { cookie: user.cookie, params: { id: user.id } };
    },
  },
  {
    method: 'GET',
    route: '/api/calendar/:file',
    auth: 'none',
    body: 'none',
    writes: [],
    example: async (fx) => {
      const user = await fx.user();
      const secret = `${fx.unique('feed').replace(/[^A-Za-z0-9]/g, '')}${'x'.repeat(43)}`.slice(0, 43);
      await fx.db.updateTable('users').set({ calendarSecret: secret }).where('id', '=', user.id).execute();
      return { params: { file: `${secret}.ics` } };
    },
  },
  {
    method: 'GET',
    route: '/api/user/:id',
    auth: 'user',
    body: 'none',
    writes: [],
    example: async (fx) => {
      const user = await fx.user();
      return { cookie: user.cookie, params: { id: user.id } };
    },
  },
  {
    method: 'PUT',
    route: '/api/user/:id/update',
    auth: 'user',
    body: 'json',
    fields: {
      firstName: text(),
      lastName: text(),
      phone: optionalText({ bad: ['12345678901', '+1 555', 'abc'] }),
      preferredName: optionalText(),
      pronoun: optionalText(),
      city: optionalText(),
      zipcode: optionalText({ bad: ['123456', '12a45'] }),
    },
    writes: ['users'],
    example: async (fx) => {
      const user = await fx.user();
      return {
        cookie: user.cookie,
        params: { id: user.id },
        json: { firstName: 'Ana', lastName: 'Lima', phone: '5551234567', preferredName: 'Annie', pronoun: 'she/her', city: 'Oakland, CA', zipcode: '94607' },
      };
    },
  },

  // --- chocolates, coupons, orders -----------------------------------------------------------
  { method: 'GET', route: '/api/chocolates', auth: 'none', body: 'none', writes: [], example: async () => ({}) },
  {
    method: 'POST',
    route: '/api/chocolates',
    auth: 'admin',
    body: 'json',
    fields: {
      name: text(),
      image: optionalText({ bad: ['javascript:alert(1)', '//evil.example/x.png', 'data:image/png;base64,AAAA', '/a b.png', '\\\\evil\\x.png'] }),
      description: optionalText(),
      details: optionalText(),
      price: { kind: 'money', required: true, bad: [-1, 0.001, '18.555', '1e3', 'NaN', 100_000.01, 1e308] },
      inventory: { kind: 'number', required: true, bad: [-1, 1.5, 1_000_001, 1e308] },
    },
    writes: ['products'],
    example: async (fx) => ({
      json: { name: fx.unique('Chai Spice Bonbons'), image: '/images/chai.png', description: 'Warm spices.', details: '12 pieces', price: 18.5, inventory: 7 },
    }),
  },
  {
    method: 'PUT',
    route: '/api/chocolates/:id',
    auth: 'admin',
    body: 'json',
    fields: {
      name: text(),
      image: optionalText({ bad: ['javascript:alert(1)', '//evil.example/x.png'] }),
      description: optionalText(),
      details: optionalText(),
      price: { kind: 'money', required: true, bad: [-0.5, '1.234', 'ten'] },
      inventory: { kind: 'number', required: true, bad: [-3, 0.5] },
    },
    writes: ['products'],
    example: async (fx) => ({
      params: { id: (await fx.product()).id },
      json: { name: fx.unique('Dark Sea Salt'), image: '', description: 'Flaky salt.', details: '70% cacao', price: '21.00', inventory: 4 },
    }),
  },
  {
    method: 'DELETE',
    route: '/api/chocolates/:id',
    auth: 'admin',
    body: 'none',
    writes: ['products', 'orderItems'],
    example: async (fx) => ({ params: { id: (await fx.product()).id } }),
  },
  {
    method: 'POST',
    route: '/api/chocolates/validate-coupon',
    auth: 'none',
    body: 'json',
    fields: { code: match(), itemsTotal: { kind: 'number', bad: [-1, 1e308, 10_000_001] } },
    writes: [],
    example: async (fx) => ({ json: { code: (await fx.cartCoupon()).toLowerCase(), itemsTotal: 30 } }),
  },
  {
    method: 'POST',
    route: '/api/orders/paypal',
    auth: 'none',
    body: 'json',
    fields: {
      cartItems: {
        kind: 'array',
        required: true,
        bad: [
          [],
          [{}],
          [null],
          [{ _id: 'no-such-tin', quantity: 1 }],
          [{ _id: 1, quantity: 1 }],
          [{ _id: '../x', quantity: 1 }],
          [{ _id: 'x', quantity: 0 }],
          [{ _id: 'x', quantity: 100 }],
          [{ _id: 'x', quantity: -1 }],
          [{ _id: 'x', quantity: 1.5 }],
          Array.from({ length: 51 }, (_, i) => ({ _id: `id${i}`, quantity: 1 })),
        ],
      },
      isLocalPickup: { kind: 'boolean' },
      couponCode: optionalText({ role: 'match' }),
      // Issue 24: required for a shipped cart, one of the US states.
      shipToState: match({ bad: ['XX', 'Washington', 'W', 'W A'] }),
    },
    writes: [],
    example: async (fx) => ({
      json: { cartItems: [{ _id: (await fx.product()).id, quantity: 2 }], isLocalPickup: false, couponCode: await fx.cartCoupon(), shipToState: 'WA' },
    }),
  },
  {
    method: 'POST',
    route: '/api/orders',
    auth: 'none',
    body: 'json',
    fields: {
      orderId: match(),
      cartItems: { kind: 'array', required: true, bad: [[], [{}], [{ _id: 'no-such-tin', quantity: 1 }], [{ _id: 'x', quantity: 0 }]] },
      isLocalPickup: { kind: 'boolean' },
      couponCode: optionalText({ role: 'match' }),
      // Stand-ins for the payer PayPal reports: invalid values are dropped, never stored.
      payerName: optionalText({ lenient: true }),
      payerEmail: optionalText({ lenient: true }),
      // The example is a pickup: its state is dropped unread (issue 24; POST /api/orders/paypal checks it).
      shipToState: { kind: 'any' },
      // SPEC.md's Order carries them; the server prices the cart itself and never reads them.
      transactionAmount: { kind: 'any' },
      discount: { kind: 'any' },
    },
    writes: ['orders', 'orderItems', 'products', 'paymentAttempts', 'mails'],
    example: async (fx) => {
      const product = await fx.product();
      const cart = { cartItems: [{ _id: product.id, quantity: 1 }], isLocalPickup: true, couponCode: null };
      const orderId = await fx.cartOrder(cart);
      return { json: { orderId, ...cart, payerName: 'Pat Buyer', payerEmail: 'pat@example.com', transactionAmount: 18, discount: 0 } };
    },
  },
  {
    method: 'GET',
    route: '/api/admin/orders',
    auth: 'admin',
    body: 'none',
    fields: { status: optionalText({ in: 'query', role: 'match', bad: ['lost', 'PAID'] }) },
    writes: [],
    example: async () => ({ query: { status: 'paid' } }),
  },
  // PayPal's deliveries, signed the way the emulator's verify endpoint accepts. Unknown event
  // types are answered 200 and ignored by design, so only malformed ones are refused.
  {
    method: 'POST',
    route: '/api/paypal/webhook',
    auth: 'none',
    body: 'json',
    fields: { event_type: match({ bad: ['payment.capture.completed', 'PAYMENT..CAPTURE', 'PAYMENT CAPTURE'] }) },
    writes: ['orders', 'paymentAttempts', 'mails'],
    example: async (fx) => ({
      headers: emulatorWebhookHeaders(),
      json: {
        id: fx.unique('WH').toUpperCase(),
        event_version: '1.0',
        resource_type: 'capture',
        event_type: 'PAYMENT.CAPTURE.COMPLETED',
        resource: { id: await fx.pendingOrder(), status: 'COMPLETED', amount: { currency_code: 'USD', value: '26.00' } },
      },
    }),
  },
  {
    method: 'PUT',
    route: '/api/admin/orders/:id/status',
    auth: 'admin',
    body: 'json',
    fields: {
      status: match({ bad: ['refunded', 'PAID', 'lost'] }),
      // Issue 20: with shipped, the buyer is mailed the number (linked for a known carrier).
      trackingNumber: optionalText({ role: 'match', bad: ['1Z 999 <b>', 'x'.repeat(65)] }),
      carrier: optionalText({ bad: ['x'.repeat(41), 'UPS\nDHL'] }),
    },
    writes: ['orders', 'mails'],
    example: async (fx) => ({ params: { id: await fx.order(false) }, json: { status: 'shipped', trackingNumber: '1Z999AA10123456784', carrier: 'UPS' } }),
  },

  // --- images --------------------------------------------------------------------------------
  {
    method: 'POST',
    route: '/api/admin/images',
    auth: 'admin',
    body: 'multipart',
    writes: ['images', 'imageVariants'],
    bodyLimit: 20 * 1024 * 1024 + 64 * 1024,
    example: async () => ({ form: () => pngForm() }),
  },
  { method: 'GET', route: '/api/images/:id', auth: 'none', body: 'none', writes: [], example: async (fx) => ({ params: { id: await fx.image() } }) },
  // The cut a shared page shows (1200×630), made from the stored photo.
  { method: 'GET', route: '/api/images/:id/og.jpg', auth: 'none', body: 'none', writes: [], example: async (fx) => ({ params: { id: await fx.image() } }) },
  {
    method: 'GET',
    route: '/api/images/:id/:file',
    auth: 'none',
    body: 'none',
    writes: [],
    example: async (fx) => {
      const id = await fx.image();
      await fx.db
        .insertInto('imageVariants')
        .values({ imageId: id, format: 'webp', width: 1, height: 1, bytes: new Uint8Array(PNG) })
        .execute();
      return { params: { id, file: '1.webp' } };
    },
  },

  // The landscape cut of a portrait photo (issue 25), under its focal point's name.
  {
    method: 'GET',
    route: '/api/images/:id/:crop/:file',
    auth: 'none',
    body: 'none',
    writes: [],
    example: async (fx) => {
      const id = await fx.image();
      await fx.db
        .insertInto('imageVariants')
        .values({ imageId: id, format: 'webp', width: 1, height: 1, bytes: new Uint8Array(PNG), crop: 'ca' })
        .execute();
      return { params: { id, crop: 'ca', file: '1.webp' } };
    },
  },
  // Her focal point on a photo: the cut is made again around it (issue 25).
  {
    method: 'PUT',
    route: '/api/admin/images/:id/focus',
    auth: 'admin',
    body: 'json',
    writes: ['images', 'imageVariants'],
    example: async (fx) => {
      const id = await fx.image();
      // A photo the pipeline made (it has a size); 1×1 gives a cut of no size, so nothing is encoded.
      await fx.db.updateTable('images').set({ width: 1, height: 1, placeholder: '' }).where('id', '=', id).execute();
      return { params: { id }, json: { focus: { x: 0.5, y: 0.25 } } };
    },
  },

  // --- galleries (the slideshows of /yoga and /chocolates) ------------------------------------
  { method: 'GET', route: '/api/galleries/:gallery', auth: 'none', body: 'none', writes: [], example: async () => ({ params: { gallery: 'yoga' } }) },
  {
    method: 'GET',
    route: '/api/admin/galleries/:gallery',
    auth: 'admin',
    body: 'none',
    writes: [],
    example: async () => ({ params: { gallery: 'chocolates' } }),
  },
  {
    method: 'POST',
    route: '/api/admin/galleries/:gallery/photos',
    auth: 'admin',
    body: 'multipart',
    writes: ['images', 'imageVariants', 'galleryPhotos'],
    bodyLimit: 20 * 1024 * 1024 + 64 * 1024,
    example: async () => ({
      params: { gallery: 'chocolates' },
      form: () => {
        const form = pngForm();
        form.append('alt', 'A tin of chai spice bonbons');
        return form;
      },
    }),
  },
  {
    method: 'PUT',
    route: '/api/admin/galleries/:gallery/photos/:id',
    auth: 'admin',
    body: 'json',
    fields: { alt: text({ required: true }) },
    writes: ['galleryPhotos'],
    example: async (fx) => ({ params: { gallery: 'yoga', id: await fx.galleryPhoto() }, json: { alt: 'Morning class by the window' } }),
  },
  {
    method: 'PUT',
    route: '/api/admin/galleries/:gallery/order',
    auth: 'admin',
    body: 'json',
    fields: { ids: { kind: 'array', required: true, role: 'match' } },
    writes: ['galleryPhotos'],
    example: async (fx) => {
      await fx.galleryPhoto();
      const ids = (await fx.db.selectFrom('galleryPhotos').select('id').where('gallery', '=', 'yoga').orderBy('position').execute()).map((r) => r.id);
      return { params: { gallery: 'yoga' }, json: { ids: ids.reverse() } };
    },
  },
  {
    method: 'DELETE',
    route: '/api/admin/galleries/:gallery/photos/:id',
    auth: 'admin',
    body: 'none',
    writes: ['galleryPhotos', 'images', 'imageVariants'],
    example: async (fx) => ({ params: { gallery: 'yoga', id: await fx.galleryPhoto() } }),
  },

  // --- her pages (issue 19) ------------------------------------------------------------------
  { method: 'GET', route: '/api/admin/images', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  { method: 'GET', route: '/api/admin/pages', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  {
    method: 'POST',
    route: '/api/admin/pages',
    auth: 'admin',
    body: 'json',
    fields: {
      title: text({ inJson: true }),
      description: text({ inJson: true }),
      brand: match({ bad: ['tea', 'YOGA'] }),
      sections: { kind: 'array', required: true, role: 'match', bad: [[], [{ markdown: '' }], [{ markdown: 'x', imageId: 'not-a-photo' }]] },
      slug: { kind: 'string', role: 'match', bad: ['Bad Slug!', 'admin', 'api', 'cart', '-x', 'a--b'] },
      inNavigation: { kind: 'boolean' },
      inFooter: { kind: 'boolean' },
    },
    writes: ['pages', 'pageRedirects'],
    example: async (fx) => ({
      json: {
        title: 'Chronic Pain Support',
        slug: fx
          .unique('chronic-pain')
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-'),
        description: 'Gentle yoga therapy for chronic pain.',
        brand: 'yoga',
        sections: [{ markdown: 'Breath first, then movement.' }],
        inNavigation: true,
        inFooter: false,
      },
    }),
  },
  { method: 'GET', route: '/api/admin/pages/:slug', auth: 'admin', body: 'none', writes: [], example: async () => ({ params: { slug: 'contact' } }) },
  {
    method: 'PUT',
    route: '/api/admin/pages/:slug',
    auth: 'admin',
    body: 'json',
    fields: { content: { kind: 'any', required: true }, version: { kind: 'number', required: true, role: 'match', bad: [-1, 1.5] } },
    writes: ['pages'],
    example: async (fx) => {
      const slug = await fx.customPage();
      const row = await fx.db.selectFrom('pages').select(['draft', 'draftVersion']).where('slug', '=', slug).executeTakeFirstOrThrow();
      return { params: { slug }, json: { content: { ...JSON.parse(row.draft), title: 'Chronic Pain, Gently' }, version: row.draftVersion } };
    },
  },
  {
    method: 'DELETE',
    route: '/api/admin/pages/:slug',
    auth: 'admin',
    body: 'none',
    writes: ['pages', 'pageRevisions', 'pageRedirects', 'renderedPages'],
    example: async (fx) => ({ params: { slug: await fx.customPage(true) } }),
  },
  {
    method: 'POST',
    route: '/api/admin/pages/:slug/publish',
    auth: 'admin',
    body: 'none',
    writes: ['pages', 'pageRevisions', 'renderedPages'],
    example: async (fx) => ({ params: { slug: await fx.customPage() } }),
  },
  {
    method: 'POST',
    route: '/api/admin/pages/:slug/unpublish',
    auth: 'admin',
    body: 'none',
    writes: ['pages', 'renderedPages'],
    example: async (fx) => ({ params: { slug: await fx.customPage(true) } }),
  },
  {
    method: 'POST',
    route: '/api/admin/pages/:slug/rename',
    auth: 'admin',
    body: 'json',
    fields: { slug: match({ bad: ['Bad Slug!', 'admin', 'yoga', 'a--b'] }) },
    writes: ['pages', 'pageRevisions', 'pageRedirects', 'renderedPages'],
    example: async (fx) => ({
      params: { slug: await fx.customPage(true) },
      json: {
        slug: fx
          .unique('renamed')
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-'),
      },
    }),
  },
  { method: 'GET', route: '/api/admin/pages/:slug/revisions', auth: 'admin', body: 'none', writes: [], example: async () => ({ params: { slug: 'yoga' } }) },
  {
    method: 'POST',
    route: '/api/admin/pages/:slug/revisions/:n/restore',
    auth: 'admin',
    body: 'none',
    writes: ['pages', 'pageRevisions', 'renderedPages'],
    example: async () => ({ params: { slug: 'contact', n: '1' } }),
  },
  // Without the built site (these tests) a preview can't be rendered: 503 with the reason.
  {
    method: 'GET',
    route: '/api/admin/pages/:slug/preview',
    auth: 'admin',
    body: 'none',
    writes: [],
    okStatus: [503],
    example: async () => ({ params: { slug: 'yoga' } }),
  },

  // --- her journal (issue 22) ------------------------------------------------------------------
  { method: 'GET', route: '/api/admin/posts', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  {
    method: 'POST',
    route: '/api/admin/posts',
    auth: 'admin',
    body: 'json',
    fields: {
      title: text({ inJson: true }),
      body: text({ inJson: true }),
      brand: match({ bad: ['tea', 'YOGA'] }),
      slug: { kind: 'string', role: 'match', bad: ['Bad Slug!', 'a--b', '-x'] },
      tags: {
        kind: 'array',
        role: 'match',
        bad: [['!!!'], ['a'.repeat(31)], ['calm', 'calm'], ['Back pain', 'back-pain'], [''], Array.from({ length: 11 }, (_, i) => `t${i}`)],
      },
      coverImageId: { kind: 'string', role: 'match', bad: ['not-a-photo'] },
      coverAlt: optionalText({ inJson: true }),
      excerpt: optionalText({ inJson: true }),
      seoTitle: optionalText({ inJson: true }),
      seoDescription: optionalText({ inJson: true }),
      publishAt: { kind: 'string', role: 'match', bad: ['tomorrow', '2020-01-01T00:00:00Z', '2031-02-30T10:00:00Z'] },
    },
    writes: ['pages'],
    example: async (fx) => ({
      json: {
        title: 'Ten slow breaths',
        slug: fx
          .unique('ten-breaths')
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-'),
        body: 'Before the kettle, sit. **Breathe.**',
        brand: 'yoga',
        tags: ['breathwork'],
        excerpt: 'A morning practice.',
      },
    }),
  },
  { method: 'GET', route: '/api/admin/posts/:id', auth: 'admin', body: 'none', writes: [], example: async (fx) => ({ params: { id: await fx.post() } }) },
  {
    method: 'PUT',
    route: '/api/admin/posts/:id',
    auth: 'admin',
    body: 'json',
    fields: { content: { kind: 'any', required: true }, version: { kind: 'number', role: 'match', bad: [-1, 1.5] } },
    writes: ['pages'],
    example: async (fx) => {
      const id = await fx.post();
      const row = await fx.db.selectFrom('pages').select(['draft', 'draftVersion']).where('slug', '=', `post/${id}`).executeTakeFirstOrThrow();
      return { params: { id }, json: { content: { ...JSON.parse(row.draft), title: 'Eleven slow breaths' }, version: row.draftVersion } };
    },
  },
  {
    method: 'DELETE',
    route: '/api/admin/posts/:id',
    auth: 'admin',
    body: 'none',
    writes: ['pages', 'pageRevisions', 'pageRedirects', 'renderedPages'],
    example: async (fx) => ({ params: { id: await fx.post(true) } }),
  },
  {
    method: 'POST',
    route: '/api/admin/posts/:id/publish',
    auth: 'admin',
    body: 'none',
    writes: ['pages', 'pageRevisions', 'pageRedirects', 'renderedPages'],
    example: async (fx) => ({ params: { id: await fx.post() } }),
  },
  {
    method: 'POST',
    route: '/api/admin/posts/:id/schedule',
    auth: 'admin',
    body: 'json',
    // `at: null` cancels a schedule, so the field may be null: its other values are probed.
    fields: { at: { kind: 'string', role: 'match', bad: ['tomorrow', '2020-01-01T00:00:00Z', '2031-13-01T10:00:00Z'] } },
    writes: ['pages'],
    example: async (fx) => ({ params: { id: await fx.post() }, json: { at: new Date(Date.now() + 86_400_000).toISOString() } }),
  },
  {
    method: 'POST',
    route: '/api/admin/posts/:id/unpublish',
    auth: 'admin',
    body: 'none',
    writes: ['pages', 'renderedPages'],
    example: async (fx) => ({ params: { id: await fx.post(true) } }),
  },
  {
    method: 'GET',
    route: '/api/admin/posts/:id/revisions',
    auth: 'admin',
    body: 'none',
    writes: [],
    example: async (fx) => ({ params: { id: await fx.post(true) } }),
  },
  {
    method: 'POST',
    route: '/api/admin/posts/:id/revisions/:n/restore',
    auth: 'admin',
    body: 'none',
    writes: ['pages', 'pageRevisions', 'pageRedirects', 'renderedPages'],
    example: async (fx) => ({ params: { id: await fx.post(true), n: '1' } }),
  },
  // Without the built site (these tests) a preview can't be rendered: 503 with the reason.
  {
    method: 'GET',
    route: '/api/admin/posts/:id/preview',
    auth: 'admin',
    body: 'none',
    writes: [],
    okStatus: [503],
    example: async (fx) => ({ params: { id: await fx.post() } }),
  },
  // Reads an optional { full } (the excerpt by default): a body it can't read is taken as none.
  {
    method: 'POST',
    route: '/api/admin/posts/:id/newsletter',
    auth: 'admin',
    body: 'none',
    writes: ['pages', 'newsletters', 'newsletterOutbox'],
    okStatus: [202],
    example: async (fx) => ({ params: { id: await fx.post(true) } }),
  },

  // --- mail (issue 21): Resend's signed delivery events, and what did not leave ----------------
  // The body is verified as a whole by its signature: any altered field fails it (401).
  {
    method: 'POST',
    route: '/api/webhooks/resend',
    auth: 'none',
    body: 'json',
    writes: ['mailSuppressions'],
    example: async (fx) => {
      const json = JSON.parse(mailEventPayload('bounced', fx.email('bounce')));
      const signed = signMailEvent(DEV_WEBHOOK_SECRET, JSON.stringify(json));
      return { json, headers: { 'svix-id': signed.id, 'svix-timestamp': signed.timestamp, 'svix-signature': signed.signature } };
    },
  },
  { method: 'GET', route: '/api/admin/mail/unsent', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  {
    method: 'POST',
    route: '/api/admin/mail/:id/retry',
    auth: 'admin',
    body: 'none',
    writes: ['mailOutbox', 'mails'],
    example: async (fx) => {
      const row = await fx.db
        .insertInto('mailOutbox')
        .values({
          kind: 'contact-message',
          to: fx.email('failed'),
          canonicalTo: fx.email('failed'),
          about: fx.email('failed'),
          subject: 'A failed mail',
          text: 'x',
          state: 'failed',
          lastError: 'refused (422)',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { params: { id: row.id } };
    },
  },

  // --- the mailbox stand-in's JSON (development and tests only) -------------------------------
  {
    method: 'GET',
    route: '/api/dev/mailbox',
    auth: 'none',
    body: 'none',
    fields: { to: optionalText({ in: 'query', role: 'lookup' }) },
    writes: [],
    example: async () => ({ query: { to: 'teacher@example.com' } }),
  },
  {
    method: 'POST',
    route: '/api/dev/mailbox/events',
    auth: 'none',
    body: 'json',
    // The address is stored as its mailbox (lower-cased, +tag dropped), not as typed: a lookup.
    fields: { type: match({ bad: ['bounce', 'BOUNCED', 'delivered'] }), email: text({ role: 'lookup' }) },
    writes: ['mailSuppressions'],
    example: async (fx) => ({ json: { type: 'complained', email: fx.email('complaint') } }),
  },

  // --- the back office (issue 16) -----------------------------------------------------------
  { method: 'GET', route: '/api/announcement', auth: 'none', body: 'none', writes: [], example: async () => ({}) },
  { method: 'GET', route: '/api/admin/announcement', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  {
    method: 'PUT',
    route: '/api/admin/announcement',
    auth: 'admin',
    body: 'json',
    // An empty message removes the announcement, so it is not "required".
    fields: {
      message: optionalText(),
      link: optionalText({ bad: ['javascript:alert(1)', 'data:text/html,hi', 'ftp://example.com/x'] }),
      startsAt: optionalText({ role: 'match', bad: ['tomorrow', '2031-01-01', '2031-01-01T10:00'] }),
      endsAt: optionalText({ role: 'match', bad: ['2000-01-01T00:00:00Z'] }),
    },
    writes: ['announcements'],
    example: async (fx) => ({
      json: {
        message: fx.unique('No classes over the holidays'),
        link: 'https://example.com/calendar',
        startsAt: '2020-01-01T00:00:00.000Z',
        endsAt: '2099-01-01T00:00:00.000Z',
      },
    }),
  },
  {
    method: 'GET',
    route: '/api/admin/finances',
    auth: 'admin',
    body: 'none',
    // Without from and to: the current year (issue 24); one of them alone is refused.
    fields: {
      from: optionalText({ in: 'query', role: 'match', bad: ['2025-13', '2025-1', '1999-12', '2025-06-01'] }),
      to: optionalText({ in: 'query', role: 'match', bad: ['2024-12', '2101-01'] }),
    },
    writes: [],
    example: async () => ({ query: { from: '2025-01', to: '2025-12' } }),
  },
  { method: 'GET', route: '/api/admin/exports/:file', auth: 'admin', body: 'none', writes: [], example: async () => ({ params: { file: 'orders.csv' } }) },
  // Issue 20: the finances per month as CSV; without from and to, the last 12 months.
  {
    method: 'GET',
    route: '/api/admin/exports/finances.csv',
    auth: 'admin',
    body: 'none',
    fields: {
      from: optionalText({ in: 'query', role: 'match', bad: ['2025-13', '2025-1', '1999-12', '2025-06-01'] }),
      to: optionalText({ in: 'query', role: 'match', bad: ['2024-12', '2101-01'] }),
    },
    writes: [],
    example: async () => ({ query: { from: '2025-01', to: '2025-12' } }),
  },
  // Issue 20: the Today panel, and her settings.
  { method: 'GET', route: '/api/admin/today', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  { method: 'GET', route: '/api/admin/settings', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  {
    method: 'PUT',
    route: '/api/admin/settings',
    auth: 'admin',
    body: 'json',
    fields: {
      defaultPlace: optionalText({ inJson: true, bad: ['javascript://alert(1)', 'Room 1\nRoom 2'] }),
      bookingAmounts: { kind: 'any' },
    },
    writes: ['settings'],
    example: async (fx) => ({ json: { defaultPlace: fx.unique('Studio') } }),
  },
  { method: 'GET', route: '/api/admin/newsletters', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  {
    method: 'POST',
    route: '/api/admin/newsletters',
    auth: 'admin',
    body: 'json',
    fields: { subject: text(), body: text() },
    writes: ['newsletters'],
    example: async (fx) => ({ json: { subject: fx.unique('Spring news'), body: '# Hello\n\nClasses **resume** on Monday.' } }),
  },
  {
    method: 'POST',
    route: '/api/admin/newsletters/preview',
    auth: 'admin',
    body: 'json',
    // Rendered and answered, never stored.
    fields: { subject: text({ role: 'lookup' }), body: text({ role: 'lookup' }) },
    writes: [],
    example: async () => ({ json: { subject: 'Preview', body: '*Hello*' } }),
  },
  {
    method: 'GET',
    route: '/api/admin/newsletters/:id',
    auth: 'admin',
    body: 'none',
    writes: [],
    example: async (fx) => ({ params: { id: await fx.newsletter() } }),
  },
  {
    method: 'PUT',
    route: '/api/admin/newsletters/:id',
    auth: 'admin',
    body: 'json',
    fields: { subject: text(), body: text() },
    writes: ['newsletters'],
    example: async (fx) => ({ params: { id: await fx.newsletter() }, json: { subject: fx.unique('Summer news'), body: 'New words' } }),
  },
  {
    method: 'POST',
    route: '/api/admin/newsletters/:id/test',
    auth: 'admin',
    body: 'none',
    writes: ['mails'],
    example: async (fx) => ({ params: { id: await fx.newsletter() } }),
  },
  // Last: should a server's sender be awake, it mails in the background only after every other endpoint's snapshots.
  {
    method: 'POST',
    route: '/api/admin/newsletters/:id/send',
    auth: 'admin',
    body: 'none',
    writes: ['newsletters', 'newsletterOutbox', 'mails'],
    okStatus: [202],
    example: async (fx) => {
      await fx.subscriber();
      return { params: { id: await fx.newsletter() } };
    },
  },

  // --- her books (issue 24) -------------------------------------------------------------------
  { method: 'GET', route: '/api/tax-rates', auth: 'none', body: 'none', writes: [], example: async () => ({}) },
  { method: 'GET', route: '/api/admin/tax-rates', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  // Issue 29: the rate at a buyer's place, her ZIP tables and where she collects.
  {
    method: 'GET',
    route: '/api/tax-rates/at',
    auth: 'none',
    body: 'none',
    fields: { state: match({ in: 'query', bad: ['ZZ', 'wa1'] }), zip: { kind: 'string', role: 'lookup', in: 'query', bad: ['9810', 'abcde'] } },
    writes: ['taxRateLookups'],
    example: async () => ({ query: { state: 'WA', zip: '98101' } }),
  },
  {
    method: 'POST',
    route: '/api/admin/tax-rates/:state/zips',
    auth: 'admin',
    body: 'json',
    fields: { csv: { kind: 'string', required: true, role: 'lookup', bad: ['zip,rate', 'ZIP,Rate,Location code,Name\n98101,abc,1726,Seattle'] } },
    writes: ['taxZipRates'],
    example: async () => ({ params: { state: 'WA' }, json: { csv: 'ZIP,Rate,Location code,Name\n98101,0.1035,1726,Seattle' } }),
  },
  { method: 'GET', route: '/api/admin/settings/tax', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  {
    method: 'PUT',
    route: '/api/admin/settings/tax',
    auth: 'admin',
    body: 'json',
    fields: { collectsIn: { kind: 'array', required: true, role: 'match', bad: [['ZZ'], ['W A'], [1]] }, shopAddress: { kind: 'any', required: true } },
    writes: ['settings'],
    example: async () => ({ json: { collectsIn: ['OR'], shopAddress: { line1: '', city: 'Portland', state: 'OR', zip: '97201' } } }),
  },
  {
    method: 'PUT',
    route: '/api/admin/tax-rates/:state',
    auth: 'admin',
    body: 'json',
    fields: {
      ratePercent: { kind: 'number', required: true, bad: [-1, 21, 6.12345] },
      shippingTaxable: { kind: 'boolean', required: true },
      startsOn: match({ bad: badDates }),
    },
    writes: ['taxRates'],
    example: async () => ({ params: { state: 'WA' }, json: { ratePercent: 6.5, shippingTaxable: false, startsOn: '2026-01-01' } }),
  },
  { method: 'GET', route: '/api/admin/locations', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  {
    method: 'POST',
    route: '/api/admin/locations',
    auth: 'admin',
    body: 'json',
    fields: { name: text({ bad: ['Two\nlines'] }), roundTripMiles: { kind: 'number', required: true, bad: [-1, 10001, 1.25] } },
    writes: ['locations'],
    example: async (fx) => ({ json: { name: fx.unique('Riverside Studio'), roundTripMiles: 12.4 } }),
  },
  {
    method: 'PUT',
    route: '/api/admin/locations/:id',
    auth: 'admin',
    body: 'json',
    fields: { name: text({ bad: ['Two\nlines'] }), roundTripMiles: { kind: 'number', required: true, bad: [-1, 10001, 1.25] } },
    writes: ['locations'],
    example: async (fx) => ({ params: { id: await bookLocation(fx) }, json: { name: fx.unique('Hillside Gym'), roundTripMiles: 8 } }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/locations/:id',
    auth: 'admin',
    body: 'none',
    writes: ['locations'],
    example: async (fx) => ({ params: { id: await bookLocation(fx) } }),
  },
  {
    method: 'GET',
    route: '/api/admin/gigs',
    auth: 'admin',
    body: 'none',
    fields: {
      from: optionalText({ in: 'query', role: 'match', bad: ['2026-13-01', 'today'] }),
      to: optionalText({ in: 'query', role: 'match', bad: ['2026-02-30'] }),
    },
    writes: [],
    example: async () => ({ query: { from: '2026-01-01', to: '2026-12-31' } }),
  },
  {
    method: 'POST',
    route: '/api/admin/gigs',
    auth: 'admin',
    body: 'json',
    fields: {
      date: match({ bad: badDates }),
      time: match({ bad: badTimes }),
      className: text({ bad: ['Two\nlines'] }),
      locationId: match(),
      rateCents: { kind: 'number', required: true, bad: [-1, 1.5, 1_000_001] },
      frequency: match({ bad: ['daily', 'WEEKLY'] }),
      paymentMethod: match({ bad: ['bitcoin', 'Cash'] }),
      requestSent: { kind: 'boolean' },
      paid: { kind: 'boolean' },
      taxed: { kind: 'boolean' },
      repeatUntil: optionalText({ role: 'match', bad: ['2026-02-30', '2000-01-01'] }),
    },
    writes: ['gigs'],
    example: async (fx) => ({
      json: {
        date: '2026-03-03',
        time: '18:00',
        className: fx.unique('Vinyasa'),
        locationId: await bookLocation(fx),
        rateCents: 6000,
        frequency: 'weekly',
        paymentMethod: 'venmo',
        requestSent: false,
        paid: false,
        taxed: false,
        repeatUntil: '2026-03-31',
      },
    }),
  },
  {
    method: 'PUT',
    route: '/api/admin/gigs/:id',
    auth: 'admin',
    body: 'json',
    fields: { className: optionalText({ bad: ['Two\nlines'] }), paid: { kind: 'boolean' }, paidOn: optionalText({ role: 'match', bad: ['2026-02-30'] }) },
    writes: ['gigs'],
    example: async (fx) => ({ params: { id: await bookGig(fx) }, json: { className: fx.unique('Yin'), paid: true, paidOn: '2026-03-10' } }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/gigs/:id',
    auth: 'admin',
    body: 'none',
    writes: ['gigs'],
    example: async (fx) => ({ params: { id: await bookGig(fx) } }),
  },
  {
    method: 'POST',
    route: '/api/admin/gigs/:id/end',
    auth: 'admin',
    body: 'json',
    fields: { after: optionalText({ role: 'match', bad: ['2026-02-30', 'soon'] }) },
    writes: ['gigs'],
    example: async (fx) => ({ params: { id: await bookGig(fx) }, json: { after: '2026-03-10' } }),
  },
  { method: 'GET', route: '/api/admin/trips', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  {
    method: 'POST',
    route: '/api/admin/trips',
    auth: 'admin',
    body: 'json',
    fields: { date: match({ bad: badDates }), purpose: text({ bad: ['Two\nlines'] }), miles: { kind: 'number', required: true, bad: [0, -3, 10001, 2.25] } },
    writes: ['trips'],
    example: async (fx) => ({ json: { date: '2026-04-02', purpose: fx.unique('Cacao supplier'), miles: 23.5 } }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/trips/:id',
    auth: 'admin',
    body: 'none',
    writes: ['trips'],
    example: async (fx) => ({
      params: {
        id: (
          await fx.db
            .insertInto('trips')
            .values({ date: '2026-04-02', purpose: fx.unique('Market'), tenthMiles: 50 })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      },
    }),
  },
  { method: 'GET', route: '/api/admin/mileage-rates', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  {
    method: 'PUT',
    route: '/api/admin/mileage-rates/:year',
    auth: 'admin',
    body: 'json',
    fields: { centsPerMile: { kind: 'number', required: true, bad: [-1, 1001, 65.55] }, name: text({ bad: ['Two\nlines'] }) },
    writes: ['mileageRates'],
    example: async (fx) => ({ params: { year: '2025' }, json: { centsPerMile: 70, name: fx.unique('IRS business rate 2025') } }),
  },
  { method: 'GET', route: '/api/admin/tax-year/:year', auth: 'admin', body: 'none', writes: [], example: async () => ({ params: { year: '2026' } }) },
  // The tax year's CSV is the exports' /:file route with another name.
  {
    method: 'GET',
    route: '/api/admin/exports/:file',
    auth: 'admin',
    body: 'none',
    writes: [],
    example: async () => ({ params: { file: 'tax-year-2026.csv' } }),
  },

  // --- backups (issue 21) ----------------------------------------------------------------------
  { method: 'GET', route: '/api/admin/backups', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },

  // --- practice: intake, notes, the client's record and data (issue 23) -----------------------
  // A client reading their own answers, and every read of a record, writes the access log.
  {
    method: 'GET',
    route: '/api/user/:id/intake',
    auth: 'user',
    body: 'none',
    writes: ['privateAccessLog'],
    example: async (fx) => {
      const user = await fx.user();
      return { cookie: user.cookie, params: { id: user.id } };
    },
  },
  {
    method: 'PUT',
    route: '/api/user/:id/intake',
    auth: 'user',
    body: 'json',
    // The answers are checked against the form's questions (tests/api/practice/practice-intake.test.ts), and sealed: never stored as typed.
    fields: { version: { kind: 'number', required: true, role: 'match', bad: [0, -1, 1.5, 99999] }, answers: { kind: 'any' } },
    writes: ['intakeAnswers', 'privateAccessLog'],
    example: async (fx) => {
      const user = await fx.user();
      const form = await fx.db.selectFrom('intakeForms').select('version').orderBy('version', 'desc').limit(1).executeTakeFirstOrThrow();
      return { cookie: user.cookie, params: { id: user.id }, json: { version: form.version, answers: intakeAnswersExample() } };
    },
  },
  { method: 'GET', route: '/api/admin/intake', auth: 'admin', body: 'none', writes: [], example: async () => ({}) },
  {
    method: 'PUT',
    route: '/api/admin/intake',
    auth: 'admin',
    body: 'json',
    fields: {
      // Issue 23's one switch, or issue 30's per session type (either may be left out).
      required: { kind: 'boolean' },
      requiredFor: { kind: 'any' },
      questions: { kind: 'array', required: true, bad: [[], [{ id: 'x' }], [{ id: 'x', type: 'choice', label: 'Pick', options: ['one'] }]] },
    },
    writes: ['intakeForms', 'settings'],
    example: async (fx) => {
      const form = await fx.db.selectFrom('intakeForms').select('questions').orderBy('version', 'desc').limit(1).executeTakeFirstOrThrow();
      return { json: { required: false, questions: JSON.parse(form.questions) } };
    },
  },
  {
    method: 'GET',
    route: '/api/admin/users/:id/record',
    auth: 'admin',
    body: 'none',
    writes: ['privateAccessLog'],
    example: async (fx) => ({ params: { id: (await fx.user()).id } }),
  },
  {
    method: 'GET',
    route: '/api/admin/users/:id/access-log',
    auth: 'admin',
    body: 'none',
    writes: [],
    example: async (fx) => ({ params: { id: (await fx.user()).id } }),
  },
  {
    method: 'PUT',
    route: '/api/admin/bookings/:slotId/notes',
    auth: 'admin',
    body: 'json',
    // Sealed before it reaches the database (tests/api/practice/practice-records.test.ts): never found as typed, so 'lookup'.
    fields: { text: { kind: 'string', required: true, role: 'lookup' }, soap: { kind: 'any' } },
    writes: ['sessionNotes'],
    example: async (fx) => {
      const user = await fx.user();
      return { params: { slotId: await fx.bookedSlot(user.id) }, json: { text: 'Shoulders tight; better after twists.' } };
    },
  },
  {
    method: 'GET',
    route: '/api/user/:id/export',
    auth: 'user',
    body: 'none',
    writes: ['privateAccessLog'],
    example: async (fx) => {
      const user = await fx.user();
      return { cookie: user.cookie, params: { id: user.id } };
    },
  },
  {
    method: 'GET',
    route: '/api/user/:id/export/html',
    auth: 'user',
    body: 'none',
    writes: ['privateAccessLog'],
    example: async (fx) => {
      const user = await fx.user();
      return { cookie: user.cookie, params: { id: user.id } };
    },
  },
  {
    method: 'POST',
    route: '/api/user/:id/delete-request',
    auth: 'user',
    body: 'none',
    writes: ['mails'],
    example: async (fx) => {
      const user = await fx.user();
      return { cookie: user.cookie, params: { id: user.id } };
    },
  },
  {
    method: 'POST',
    route: '/api/user/delete-account',
    auth: 'none',
    body: 'json',
    fields: { token: match() },
    writes: ERASE_WRITES,
    example: async (fx) => ({ json: { token: deletionToken(fx.server.env, (await fx.user()).id) } }),
  },
  {
    method: 'GET',
    route: '/api/admin/users/:id/export',
    auth: 'admin',
    body: 'none',
    writes: ['privateAccessLog'],
    example: async (fx) => ({ params: { id: (await fx.user()).id } }),
  },
  {
    method: 'POST',
    route: '/api/admin/users/:id/erase',
    auth: 'admin',
    body: 'none',
    writes: ERASE_WRITES,
    example: async (fx) => ({ params: { id: (await fx.user()).id } }),
  },
];

/** `route` with the example's params and query filled in (values percent-encoded unless `raw`). */
export function pathOf(endpoint: Endpoint, example: Example, options: { raw?: boolean } = {}): string {
  let path = endpoint.route.replace(/\?.*$/, '');
  for (const [name, value] of Object.entries(example.params ?? {})) {
    path = path.replace(`:${name}`, options.raw ? value : encodeURIComponent(value));
  }
  const query = new URLSearchParams(example.query ?? {}).toString();
  return query ? `${path}?${query}` : path;
}

/** The route's :param names. */
export const paramsOf = (endpoint: Endpoint): string[] => [...endpoint.route.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);

/** A short name for test titles. */
export const nameOf = (endpoint: Endpoint): string => `${endpoint.method} ${endpoint.route}`;

/** The Cookie header the endpoint's auth needs: the example's own (a user's) or the admin's. */
export async function cookieFor(endpoint: Endpoint, example: Example, fx: Fixtures): Promise<string | undefined> {
  if (example.cookie) return example.cookie;
  if (endpoint.auth === 'admin') return fx.adminCookie();
  return undefined;
}
