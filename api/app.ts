import { adminAgenda } from './agenda/agenda.routes.ts';
import { adminCalendar, googlePush } from './agenda/calendar.routes.ts';
import { adminClients, adminPackages, packages, userBalance } from './packages/packages.routes.ts';
import { adminSeries, userSeries } from './booking/series.routes.ts';
import { adminGiftCards, giftCards, userGiftCards } from './gift-cards/gift-cards.routes.ts';
import { adminPages } from './pages/pages.routes.ts';
import { adminPosts } from './pages/posts.routes.ts';
import { adminTastings, tastings } from './tastings/tastings.routes.ts';
import { Hono } from 'hono';
import type { AppEnv } from './types.ts';
import type { Services } from './services/index.ts';
import type { PurchaseKinds } from './money/settle.ts';
import { onError, onNotFound } from './middleware/errors.ts';
import { allowedMethodsAnswer } from './middleware/methods.ts';
import { closeUnreadBody } from './middleware/drain-refused-body.ts';
import { compressAnswers } from './middleware/compress.ts';
import { bodyLimit } from './middleware/body-limit.ts';
import { sameOriginWrites } from './middleware/same-origin.ts';
import { privateAnswers } from './middleware/private-answers.ts';
// One folder ("wing") per feature; each route file is named for the resource it serves.
import { health } from './system/health.routes.ts';
import { config } from './system/config.routes.ts';
import { devApi, devPages } from './system/dev.routes.ts';
import { contact } from './forms/contact.routes.ts';
import { meetingRequests } from './forms/meeting-requests.routes.ts';
import { adminSubscribers, subscribers } from './forms/subscribers.routes.ts';
import { adminEvents, classStatusRoute, events } from './classes/events.routes.ts';
import { adminSignups, checkStudent, eventOrders, signups } from './classes/signups.routes.ts';
import { adminWaitlist, classPlaces, userClasses, waitlist } from './classes/places.routes.ts';
import { classFeed } from './classes/feed.routes.ts';
import { adminRoster } from './classes/roster.routes.ts';
import { admin } from './accounts/admin.routes.ts';
import { user } from './accounts/user.routes.ts';
import { slots } from './booking/slots.routes.ts';
import { adminClientBookings, booking } from './booking/booking.routes.ts';
import { calendarFeed, calendarFeedSettings } from './booking/calendar-feed.routes.ts';
import { chocolates } from './shop/products.routes.ts';
import { coupons } from './shop/coupons.routes.ts';
import { checkout } from './shop/checkout.routes.ts';
import { adminOrders } from './shop/orders.routes.ts';
import { paypalWebhooks } from './shop/paypal-webhooks.routes.ts';
import { adminMail, mailWebhooks } from './mail/mail.routes.ts';
import { adminTaxRates, adminTaxSettings, taxRates } from './shop/tax-rates.routes.ts';
// books: her gigs, locations, trips, mileage rates and the tax year (issue 24)
import { adminGigs, adminLocations, adminMileageRates, adminTaxYear, adminTrips } from './books/books.routes.ts';
import { adminBooks } from './books/food-sales.routes.ts';
// images: the photo pipeline (product photos) and the slideshows' galleries
import { adminImages, images } from './images/images.routes.ts';
import { adminGalleries, galleries } from './galleries/galleries.routes.ts';
// backoffice: newsletters, finances, exports, the site announcement
import { adminNewsletters } from './backoffice/newsletters.routes.ts';
import { adminFinances } from './backoffice/finances.routes.ts';
import { adminExports } from './backoffice/exports.routes.ts';
import { adminAnnouncement, announcement } from './backoffice/announcement.routes.ts';
import { adminToday } from './backoffice/today.routes.ts';
// settings: her numbers and defaults (issue 20)
import { adminSettings } from './settings/settings.routes.ts';
import { adminFoodLicence } from './settings/food-licence.routes.ts';
// backups: the database's backups (issue 21)
import { adminBackups } from './backups/backups.routes.ts';
// practice: intake, session notes, the client's record (issue 23); the client's data (export, deletion)
import { adminIntake, adminPractice, userIntake } from './practice/practice.routes.ts';
import { adminClientData, clientDataRoutes } from './accounts/client-data.routes.ts';
import { reserveRoutesOf } from './pages/served-paths.ts';
import { FEED_ALIASES, FEED_PATH } from './pages/journal-render.ts';

/**
 * The Hono application: `/api/*` plus the stand-ins' `/dev/*` pages. The Node entry
 * (api/server.ts) puts the static site and Astro in front of its fall-through; tests call it
 * over real HTTP with the same wiring.
 */
export function createApp(services: Services, purchases: PurchaseKinds): Hono<AppEnv> {
  const { env } = services;
  const app = new Hono<AppEnv>();
  app.onError(onError);

  app.use('*', async (c, next) => {
    c.set('services', services);
    await next();
  });

  const api = new Hono<AppEnv>();
  // First in, last out: an answer sent before its body was read closes the connection rather
  // than read the rest (at most 64 KB of a refused body is ever read).
  api.use('*', closeUnreadBody());
  // Brotli or gzip for every text answer over 1 KB that asks for it (api/middleware/compress.ts).
  api.use('*', compressAnswers());
  // A chunked body is read ahead up to the limit and refused as soon as it passes it (api/middleware/body-limit.ts).
  const bodyLimited = bodyLimit(env.BODY_LIMIT_BYTES, (c) =>
    c.json({ message: `Request body is too large (limit ${Math.round(env.BODY_LIMIT_BYTES / 1024)} KB)` }, 413),
  );
  // Photo uploads (at most 20 MB) have their own limit, checked after the admin guard (api/images/upload.ts).
  const photoUpload = (path: string) => path === '/api/admin/images' || /^\/api\/admin\/galleries\/[^/]+\/photos$/.test(path);
  api.use('*', (c, next) => (c.req.method === 'POST' && photoUpload(c.req.path) ? next() : bodyLimited(c, next)));
  api.use('*', sameOriginWrites());
  api.use('*', privateAnswers());
  // system
  api.route('/health', health);
  api.route('/config', config);
  // forms: contact, free meeting requests (SPEC's /publicBookings), newsletter
  api.route('/contact', contact);
  api.route('/publicBookings', meetingRequests);
  api.route('/subscribers', subscribers);
  api.route('/admin/subscribers', adminSubscribers);
  // classes: the calendar's events and their sign-ups
  api.route('/events', eventOrders);
  api.route('/events', events);
  // The roster (issue 34) before /admin/events: its marks regenerate no page (that router's middleware would).
  api.route('/admin', adminRoster);
  api.route('/admin/events', adminEvents);
  api.route('/class-status', classStatusRoute);
  api.route('/signup', signups);
  api.route('/check-student', checkStudent);
  api.route('/admin/signups', adminSignups);
  api.route('/class-places', classPlaces);
  api.route('/waitlist', waitlist);
  api.route('/admin/waitlist', adminWaitlist);
  // accounts: the admin and the clients
  api.route('/admin', admin);
  api.route('/user', user);
  api.route('/user', userClasses);
  // booking: slots (admin and client lists), then paying for one
  // Packages and what clients hold (issue 32).
  api.route('/packages', packages);
  api.route('/admin/packages', adminPackages);
  api.route('/gift-cards', giftCards);
  api.route('/admin/gift-cards', adminGiftCards);
  api.route('/user', userGiftCards);
  api.route('/admin', adminClients);
  api.route('/admin', adminClientBookings);
  api.route('/user', userBalance);
  api.route('/user', userSeries);
  api.route('/admin', adminSeries);
  api.route('/bookings', slots);
  api.route('/bookings', booking);
  api.route('/user', calendarFeedSettings);
  api.route('/calendar', calendarFeed);
  // shop: products, coupons, checkout and orders, PayPal's webhooks
  api.route('/chocolates', chocolates);
  api.route('/chocolates', coupons);
  api.route('/orders', checkout);
  api.route('/admin/orders', adminOrders);
  api.route('/paypal', paypalWebhooks(purchases));
  // Private tastings on /chocolates: the request, her quote, the client's deposit and balance (issue 34)
  api.route('/tastings', tastings);
  api.route('/admin/tastings', adminTastings);
  api.route('/tax-rates', taxRates);
  api.route('/admin/tax-rates', adminTaxRates);
  // her tax registrations and shop address (issue 29): before /admin/settings, which has no /tax
  api.route('/admin/settings/tax', adminTaxSettings);
  // books: gigs, locations, trips, mileage rates, the tax year (issue 24)
  api.route('/admin/gigs', adminGigs);
  api.route('/admin/locations', adminLocations);
  api.route('/admin/trips', adminTrips);
  api.route('/admin/mileage-rates', adminMileageRates);
  api.route('/admin/tax-year', adminTaxYear);
  api.route('/admin/books', adminBooks);
  api.route('/images', images);
  api.route('/admin/images', adminImages);
  api.route('/galleries', galleries);
  api.route('/admin/galleries', adminGalleries);
  api.route('/admin/newsletters', adminNewsletters);
  api.route('/admin/finances', adminFinances);
  api.route('/admin/exports', adminExports);
  api.route('/announcement', announcement);
  api.route('/admin/announcement', adminAnnouncement);
  api.route('/admin/today', adminToday);
  api.route('/admin', adminAgenda);
  // her Google Calendar (issue 35): the connection on Settings, and Google's push notifications
  api.route('/admin/calendar', adminCalendar);
  api.route('/google/calendar', googlePush);
  // her food licence (issue 48): before /admin/settings, which has no /food-licence
  api.route('/admin/settings/food-licence', adminFoodLicence);
  api.route('/admin/settings', adminSettings);
  // pages: her words, pages and their revisions (issue 19)
  api.route('/admin/pages', adminPages);
  // journal: her posts, on the pages' publishing (issue 22)
  api.route('/admin/posts', adminPosts);
  // backups: the last backup's time and size (issue 21)
  api.route('/admin/backups', adminBackups);
  // practice: her intake form, the client's answers, her notes, the client's record and data (issue 23)
  api.route('/user', userIntake);
  api.route('/user', clientDataRoutes);
  api.route('/admin/intake', adminIntake);
  api.route('/admin', adminPractice);
  api.route('/admin', adminClientData);

  // mail: Resend's delivery webhook, and what did not leave (issue 21)
  api.route('/webhooks', mailWebhooks);
  api.route('/admin/mail', adminMail);

  const devOn = env.NODE_ENV !== 'production';
  if (devOn && env.standIns.mail) {
    api.route('/dev', devApi);
    app.route('/dev', devPages);
  }
  if (devOn && services.paypalEmulator) app.route('/dev/paypal', services.paypalEmulator);
  if (devOn && services.calendarEmulator) {
    app.route('/dev/google', services.calendarEmulator.app);
    // The stand-in's push notifications reach this app in process: SITE_URL need not be where it listens.
    services.calendarEmulator.deliverPushesWith(async (request) => app.fetch(request));
  }

  // The public iCalendar feed of the upcoming classes, at the site root for calendar apps.
  app.route('/calendar.ics', classFeed);
  // The usual addresses of a site's feed lead to her journal's (issue 30).
  for (const alias of FEED_ALIASES) app.get(alias, (c) => c.redirect(FEED_PATH, 301));
  // Unknown /api paths answer JSON here instead of falling through to the site's 404 page.
  // A known address asked with a method it does not take: 405 with Allow (issue 47).
  const wrongMethod = allowedMethodsAnswer(api.routes, '/api');
  api.all('*', (c) => wrongMethod(c) ?? onNotFound(c));
  app.route('/api', api);
  // Her pages can't take an address these routes answer (issue 29).
  reserveRoutesOf(app);
  return app;
}
