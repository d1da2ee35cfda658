/**
 * Every admin route, walked against every way of not being the admin: each is refused with
 * 401 and changes nothing. A last pass with a real admin session proves the requests were
 * valid, so the refusals came from the guard and not from a bad body.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { sessionStore } from '../../../api/middleware/sessions.ts';
import { resetRateLimits } from '../../../api/middleware/rate-limit.ts';
import { mustFind } from '../../helpers/guards.ts';

const server = useTestServer();
const ids = { event: '', otherEvent: '', slot: '', product: '', otherProduct: '', user: '', subscriber: '', signup: '', order: '' };
const credentials: Record<string, string | undefined> = {};

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const pngForm = () => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'tin.png');
  return form;
};

interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Resolved when the request is made: the fixtures' ids exist only then. */
  path: () => string;
  json?: () => unknown;
  form?: () => FormData;
}

// Order matters only for the final admin pass: edits before deletes of the same thing.
const routes: Route[] = [
  { method: 'GET', path: () => '/api/admin/verify' },
  { method: 'POST', path: () => '/api/admin/refresh-token' },
  {
    method: 'POST',
    path: () => '/api/admin/events',
    json: () => ({ title: 'Guarded Flow', date: '2031-02-03', time: '18:00', location: 'Studio', signUpLink: '', isExternal: false, repeat: 'weekly' }),
  },
  { method: 'PUT', path: () => `/api/events/${ids.event}`, json: () => ({ title: 'Renamed', time: '07:00' }) },
  { method: 'DELETE', path: () => '/api/events/bulk', json: () => ({ eventIds: [ids.otherEvent] }) },
  { method: 'POST', path: () => '/api/bookings', json: () => ({ slots: [{ date: '2031-02-04', time: '10:00' }] }) },
  { method: 'GET', path: () => '/api/bookings' },
  { method: 'DELETE', path: () => `/api/bookings/${ids.slot}` },
  {
    method: 'POST',
    path: () => '/api/chocolates',
    json: () => ({ name: 'Guarded Tin', image: '', description: 'x', details: 'y', price: 9.5, inventory: 3 }),
  },
  {
    method: 'PUT',
    path: () => `/api/chocolates/${ids.product}`,
    json: () => ({ name: 'Cheap Tin', image: '', description: '', details: '', price: 0.01, inventory: 999 }),
  },
  { method: 'DELETE', path: () => `/api/chocolates/${ids.otherProduct}` },
  { method: 'POST', path: () => '/api/admin/images', form: pngForm },
  { method: 'GET', path: () => '/api/admin/users' },
  { method: 'DELETE', path: () => `/api/admin/users/${ids.user}` },
  { method: 'GET', path: () => '/api/admin/subscribers' },
  { method: 'DELETE', path: () => `/api/admin/subscribers/${ids.subscriber}` },
  { method: 'GET', path: () => '/api/admin/signups' },
  { method: 'GET', path: () => `/api/admin/signups/${ids.signup}/signature` },
  { method: 'DELETE', path: () => `/api/signup/${ids.signup}` },
  { method: 'GET', path: () => '/api/admin/orders' },
  { method: 'PUT', path: () => `/api/admin/orders/${ids.order}/status`, json: () => ({ status: 'shipped' }) },
];

const request = (route: Route, cookie: string | undefined) =>
  server.api(route.path(), {
    method: route.method,
    ...(route.json ? { json: route.json() } : {}),
    ...(route.form ? { body: route.form() } : {}),
    headers: cookie ? { cookie } : {},
  });

/** Everything an admin route could change or reveal. */
async function snapshot() {
  const { db } = server.services;
  return JSON.stringify({
    events: await db.selectFrom('events').selectAll().orderBy('id').execute(),
    slots: await db.selectFrom('slots').selectAll().orderBy('id').execute(),
    products: await db.selectFrom('products').select(['id', 'name', 'priceCents', 'inventory', 'image']).orderBy('id').execute(),
    images: await db.selectFrom('images').select('id').orderBy('id').execute(),
    users: await db.selectFrom('users').select(['id', 'email']).orderBy('id').execute(),
    userSessions: await db.selectFrom('userSessions').select('id').orderBy('id').execute(),
    subscribers: await db.selectFrom('subscribers').select('id').orderBy('id').execute(),
    signups: await db.selectFrom('classSignups').select('id').orderBy('id').execute(),
    orders: await db.selectFrom('orders').select(['id', 'status']).orderBy('id').execute(),
  });
}

beforeAll(async () => {
  await resetRateLimits();
  const { db } = server.services;
  const addEvent = (title: string) =>
    db
      .insertInto('events')
      .values({ title, date: '2031-01-07', time: '18:00', startsAt: new Date('2031-01-08T02:00:00Z') })
      .returning('id')
      .executeTakeFirstOrThrow();
  ids.event = (await addEvent('Gentle Flow')).id;
  ids.otherEvent = (await addEvent('Restorative Yin')).id;
  ids.slot = (
    await db
      .insertInto('slots')
      .values({ date: '2031-01-09', time: '10:00', startsAt: new Date('2031-01-09T18:00:00Z') })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const addProduct = (name: string) => db.insertInto('products').values({ name, priceCents: 1800, inventory: 5 }).returning('id').executeTakeFirstOrThrow();
  ids.product = (await addProduct('Sea Salt Caramel Tin')).id;
  ids.otherProduct = (await addProduct('Chai Spice Bonbons')).id;
  ids.user = (await createUser(server, { email: 'target@example.com' })).id;
  ids.subscriber = (await db.insertInto('subscribers').values({ email: 'reader@example.com' }).returning('id').executeTakeFirstOrThrow()).id;
  ids.signup = (
    await db
      .insertInto('classSignups')
      .values({ classTitle: 'Gentle Flow', date: '2031-01-07', name: 'Ana', email: 'ana@example.com', waiverAccepted: true, signaturePng: new Uint8Array(PNG) })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  ids.order = (
    await db
      .insertInto('orders')
      .values({ paypalOrderId: 'GUARDED1', itemsTotalCents: 1800, shippingCents: 500, totalCents: 2300, payerName: 'Bo', payerEmail: 'bo@example.com' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;

  const client = await createUser(server);
  const admin = await db.selectFrom('admins').select('id').executeTakeFirstOrThrow();
  const store = sessionStore(db, 'admin');
  const expired = await store.create(admin.id, new Date(Date.now() - store.lifetimeMs - 60_000));

  const login = await server.api('/api/admin/login', {
    method: 'POST',
    json: { email: 'admin@example.com', password: server.env.ADMIN_PASSWORD, recaptchaToken: 'dev:admin_login' },
  });
  expect(login.status).toBe(200);
  const loggedOut = mustFind(login.headers.getSetCookie(), (h) => h.startsWith('yc_admin=')).split(';')[0]!;
  expect((await server.api('/api/admin/verify', { headers: { cookie: loggedOut } })).status).toBe(200);
  expect((await server.api('/api/admin/logout', { method: 'POST', headers: { cookie: loggedOut } })).status).toBe(204);

  credentials['no session'] = undefined;
  credentials['a client session'] = client.cookie;
  credentials['a client token in the admin cookie'] = `yc_admin=${client.token}`;
  credentials['an expired admin session'] = `yc_admin=${expired.token}`;
  credentials['a logged-out admin session'] = loggedOut;
  credentials['a made-up admin token'] = `yc_admin=${'a'.repeat(32)}`;
});

describe(`admin guard on ${testDbKind()}`, () => {
  for (const route of routes) {
    const shown = route.path().replace(/\/$/, '/:id');
    it(`${route.method} ${shown} refuses every non-admin and changes nothing`, async () => {
      for (const [who, cookie] of Object.entries(credentials)) {
        const before = await snapshot();
        const res = await request(route, cookie);
        expect(res.status, `${who}`).toBe(401);
        expect(await res.json(), who).toEqual({ message: 'Admin login required' });
        expect(await snapshot(), who).toBe(before);
      }
    });
  }

  it('every route works with a real admin session (the bodies above are valid)', async () => {
    const cookie = await adminCookie(server);
    for (const route of routes) {
      const res = await request(route, cookie);
      expect([200, 201, 204], `${route.method} ${route.path()}: ${res.status}`).toContain(res.status);
    }
    // The writes happened: the guard, not the body, refused them before.
    const { db } = server.services;
    expect(await db.selectFrom('events').select('id').where('id', '=', ids.otherEvent).executeTakeFirst()).toBeUndefined();
    expect((await db.selectFrom('products').select('priceCents').where('id', '=', ids.product).executeTakeFirstOrThrow()).priceCents).toBe(1);
    expect(await db.selectFrom('users').select('id').where('id', '=', ids.user).executeTakeFirst()).toBeUndefined();
  });
});
