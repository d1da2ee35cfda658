import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from './types.ts';
import type { Services } from './services/index.ts';
import { onError, onNotFound } from './middleware/errors.ts';
import { requestLog } from './middleware/request-log.ts';
import { sameOriginWrites } from './middleware/same-origin.ts';
import { health } from './routes/health.ts';
import { config } from './routes/config.ts';
import { devApi, devPages } from './routes/dev.ts';
import { publicBookings } from './routes/public-bookings.ts';
import { contact } from './routes/contact.ts';
import { adminSubscribers, subscribers } from './routes/subscribers.ts';
import { adminSignups, checkStudent, signups } from './routes/signups.ts';
import { admin } from './routes/admin.ts';
import { adminEvents, classStatusRoute, events } from './routes/events.ts';
import { bookings } from './routes/bookings.ts';
import { bookingPayments } from './routes/booking-payments.ts';
import { user } from './routes/user.ts';
import { chocolates } from './routes/chocolates.ts';
import { coupons } from './routes/coupons.ts';
import { adminOrders, orders } from './routes/orders.ts';
import { paypalWebhooks } from './routes/paypal-webhooks.ts';
import { adminImages, images } from './routes/images.ts';

/**
 * The Hono application: `/api/*` plus the stand-ins' `/dev/*` pages. The Node entry
 * (api/server.ts) puts the static site and Astro in front of its fall-through; tests call it
 * over real HTTP with the same wiring.
 */
export function createApp(services: Services): Hono<AppEnv> {
  const { env } = services;
  const app = new Hono<AppEnv>();
  app.onError(onError);

  app.use('*', requestLog(env.QUIET || env.NODE_ENV === 'test'));
  app.use('*', async (c, next) => {
    c.set('services', services);
    await next();
  });

  const api = new Hono<AppEnv>();
  const bodyLimited = bodyLimit({
    maxSize: env.BODY_LIMIT_BYTES,
    // The rest of the body is never read, so the connection can't be reused: say so.
    onError: (c) =>
      c.json({ message: `Request body is too large (limit ${Math.round(env.BODY_LIMIT_BYTES / 1024)} KB)` }, 413, { connection: 'close' }),
  });
  // Image uploads (at most 2 MB) have their own limit, checked after the admin guard (api/routes/images.ts).
  api.use('*', (c, next) => (c.req.method === 'POST' && c.req.path === '/api/admin/images' ? next() : bodyLimited(c, next)));
  api.use('*', sameOriginWrites());
  api.route('/health', health);
  api.route('/config', config);
  api.route('/publicBookings', publicBookings);
  api.route('/contact', contact);
  api.route('/subscribers', subscribers);
  api.route('/admin/subscribers', adminSubscribers);
  api.route('/signup', signups);
  api.route('/check-student', checkStudent);
  api.route('/admin/signups', adminSignups);
  api.route('/admin', admin);
  api.route('/admin/events', adminEvents);
  api.route('/admin/images', adminImages);
  api.route('/events', events);
  api.route('/class-status', classStatusRoute);
  api.route('/bookings', bookings);
  api.route('/bookings', bookingPayments);
  api.route('/user', user);
  api.route('/chocolates', chocolates);
  api.route('/chocolates', coupons);
  api.route('/orders', orders);
  api.route('/admin/orders', adminOrders);
  api.route('/paypal', paypalWebhooks);
  api.route('/images', images);

  const devOn = env.NODE_ENV !== 'production';
  if (devOn && env.standIns.mail) {
    api.route('/dev', devApi);
    app.route('/dev', devPages);
  }
  if (devOn && services.paypalEmulator) app.route('/dev/paypal', services.paypalEmulator);

  // Unknown /api paths answer JSON here instead of falling through to the site's 404 page.
  api.all('*', onNotFound);
  app.route('/api', api);
  return app;
}
