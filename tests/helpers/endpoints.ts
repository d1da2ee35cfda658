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
 *
 * The table is kept by wing in tests/helpers/endpoints/<wing>.ts (their shared parts in
 * endpoints/common.ts); ENDPOINTS puts the parts together in their one order.
 */
import { HEALTH_AND_CONFIG_ENDPOINTS } from './endpoints/system.ts';
import { FORMS_ENDPOINTS } from './endpoints/forms.ts';
import { ADMIN_SESSION_AND_CLIENTS_ENDPOINTS, CLIENT_ACCOUNTS_ENDPOINTS } from './endpoints/accounts.ts';
import { CLASSES_ENDPOINTS } from './endpoints/classes.ts';
import { ROSTER_ENDPOINTS } from './endpoints/roster.ts';
import { BOOKING_ENDPOINTS } from './endpoints/booking.ts';
import { SHOP_ENDPOINTS } from './endpoints/shop.ts';
import { IMAGES_ENDPOINTS } from './endpoints/images.ts';
import { GALLERIES_ENDPOINTS } from './endpoints/galleries.ts';
import { PAGES_ENDPOINTS, JOURNAL_ENDPOINTS } from './endpoints/pages.ts';
import { MAIL_ENDPOINTS, MAILBOX_ENDPOINTS } from './endpoints/mail.ts';
import { BACKOFFICE_ENDPOINTS } from './endpoints/backoffice.ts';
import { BOOKS_ENDPOINTS } from './endpoints/books.ts';
import { BACKUPS_ENDPOINTS } from './endpoints/backups.ts';
import { PRACTICE_ENDPOINTS } from './endpoints/practice.ts';
import { PACKAGES_ENDPOINTS } from './endpoints/packages.ts';
import { GIFT_CARDS_ENDPOINTS } from './endpoints/gift-cards.ts';
import { TASTINGS_ENDPOINTS } from './endpoints/tastings.ts';
import { AGENDA_ENDPOINTS } from './endpoints/agenda.ts';
import { FOOD_LICENCE_ENDPOINTS } from './endpoints/food-licence.ts';
import { FOOD_SALES_ENDPOINTS } from './endpoints/food-sales.ts';
import type { Endpoint, Example, Fixtures } from './endpoints/common.ts';

export { BOOKING_SESSION, CART_COUPON, Fixtures, PNG, PNG_BASE64, SIGNATURE, pngForm } from './endpoints/common.ts';
export type { Auth, Endpoint, Example, Field, Method, Table } from './endpoints/common.ts';

/** Every /api endpoint of api/app.ts. */
export const ENDPOINTS: Endpoint[] = [
  ...HEALTH_AND_CONFIG_ENDPOINTS,
  ...FORMS_ENDPOINTS,
  ...ADMIN_SESSION_AND_CLIENTS_ENDPOINTS,
  ...CLASSES_ENDPOINTS,
  ...ROSTER_ENDPOINTS,
  ...BOOKING_ENDPOINTS,
  ...CLIENT_ACCOUNTS_ENDPOINTS,
  ...SHOP_ENDPOINTS,
  ...IMAGES_ENDPOINTS,
  ...GALLERIES_ENDPOINTS,
  ...PAGES_ENDPOINTS,
  ...JOURNAL_ENDPOINTS,
  ...MAIL_ENDPOINTS,
  ...MAILBOX_ENDPOINTS,
  ...BACKOFFICE_ENDPOINTS,
  ...BOOKS_ENDPOINTS,
  ...FOOD_LICENCE_ENDPOINTS,
  ...FOOD_SALES_ENDPOINTS,
  ...AGENDA_ENDPOINTS,
  ...BACKUPS_ENDPOINTS,
  ...PRACTICE_ENDPOINTS,
  ...PACKAGES_ENDPOINTS,
  ...GIFT_CARDS_ENDPOINTS,
  ...TASTINGS_ENDPOINTS,
  ...AGENDA_ENDPOINTS,
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
