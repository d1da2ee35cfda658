import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import type { Env } from '../env.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { validateJson, validateQuery } from '../validation.ts';
import { zonedNow } from '../lib/time.ts';
import { id } from '../../contract/common.ts';
import {
  bookYear,
  fromTenths,
  gigEnd,
  gigInput,
  gigsQuery,
  gigUpdate,
  GIG_DATE_TAKEN,
  GIG_NOT_FOUND,
  LOCATION_EXISTS,
  LOCATION_IN_USE,
  LOCATION_NOT_FOUND,
  locationInput,
  mileageRateInput,
  toTenths,
  TRIP_NOT_FOUND,
  tripInput,
  UNKNOWN_LOCATION,
  type GigsAddedView,
  type LocationView,
  type MileageRateView,
  type TripView,
} from '../../contract/books.ts';
import {
  deleteGig,
  deleteLocation,
  deleteTrip,
  findLocationByName,
  insertLocation,
  insertTrip,
  listLocations,
  listMileageRates,
  listTrips,
  locationHasGigs,
  putMileageRate,
  updateLocation,
} from './books.repo.ts';
import { addGig, changeGig, endGig, gigsOf, type GigRefusal } from './gigs.ts';
import { taxYearOf } from './tax-year.ts';

/**
 * Her books (issue 24), admin only:
 *   /api/admin/locations       GET, POST {name, roundTripMiles, bufferMinutes?}; PUT, DELETE /{id}
 *   /api/admin/gigs            GET [?from&to], POST (one class or a recurring gig; answers what it overlaps); PUT, DELETE /{id}; POST /{id}/end
 *   /api/admin/trips           GET, POST {date, purpose, miles}; DELETE /{id}
 *   /api/admin/mileage-rates   GET; PUT /{year} {centsPerMile, name}
 *   /api/admin/tax-year/{year} GET: the year's report (its CSV: /api/admin/exports/tax-year-{year}.csv)
 */

const today = (env: Env) => zonedNow(env.SITE_TIMEZONE).date;
const validId = (s: string) => id.safeParse(s).success;

const locationView = (l: { id: string; name: string; roundTripTenthMiles: number; bufferMinutes: number }): LocationView => ({
  _id: l.id,
  name: l.name,
  roundTripMiles: fromTenths(l.roundTripTenthMiles),
  bufferMinutes: l.bufferMinutes,
});
const tripView = (t: { id: string; date: string; purpose: string; tenthMiles: number }): TripView => ({
  _id: t.id,
  date: t.date,
  purpose: t.purpose,
  miles: fromTenths(t.tenthMiles),
});
const rateView = (r: { year: number; rateTenthCents: number; name: string }): MileageRateView => ({
  year: r.year,
  centsPerMile: r.rateTenthCents / 10,
  name: r.name,
});

const gigAnswers: Record<GigRefusal, { status: 400 | 404 | 409; message: string }> = {
  'unknown-location': { status: 400, message: UNKNOWN_LOCATION },
  'gig-not-found': { status: 404, message: GIG_NOT_FOUND },
  'date-taken': { status: 409, message: GIG_DATE_TAKEN },
};

export const adminLocations = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', async (c) => c.json((await listLocations(c.var.services.db)).map(locationView)))
  .post('/', validateJson(locationInput), async (c) => {
    const { db } = c.var.services;
    const { name, roundTripMiles, bufferMinutes } = c.req.valid('json');
    if (await findLocationByName(db, name)) return c.json({ message: LOCATION_EXISTS }, 409);
    return c.json(locationView(await insertLocation(db, { name, roundTripTenthMiles: toTenths(roundTripMiles), bufferMinutes: bufferMinutes ?? 0 })), 201);
  })
  .put('/:id', validateJson(locationInput), async (c) => {
    const { db } = c.var.services;
    const locationId = c.req.param('id');
    if (!validId(locationId)) return c.json({ message: LOCATION_NOT_FOUND }, 404);
    const { name, roundTripMiles, bufferMinutes } = c.req.valid('json');
    const same = await findLocationByName(db, name);
    if (same && same.id !== locationId) return c.json({ message: LOCATION_EXISTS }, 409);
    const row = await updateLocation(db, locationId, { name, roundTripTenthMiles: toTenths(roundTripMiles), bufferMinutes });
    return row ? c.json(locationView(row)) : c.json({ message: LOCATION_NOT_FOUND }, 404);
  })
  .delete('/:id', async (c) => {
    const { db } = c.var.services;
    const locationId = c.req.param('id');
    if (!validId(locationId)) return c.json({ message: LOCATION_NOT_FOUND }, 404);
    if (await locationHasGigs(db, locationId)) return c.json({ message: LOCATION_IN_USE }, 409);
    return (await deleteLocation(db, locationId)) ? c.json({ message: 'Location deleted.' }) : c.json({ message: LOCATION_NOT_FOUND }, 404);
  });

export const adminGigs = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', validateQuery(gigsQuery), async (c) => {
    const { db, env } = c.var.services;
    const { from, to } = c.req.valid('query');
    return c.json(await gigsOf(db, today(env), from, to));
  })
  .post('/', validateJson(gigInput), async (c) => {
    const { db, env } = c.var.services;
    const result = await addGig(db, env.SITE_TIMEZONE, c.req.valid('json'));
    if (!result.ok) return c.json({ message: gigAnswers[result.kind].message }, gigAnswers[result.kind].status);
    const { ok: _ok, ...added } = result;
    const n = added.ids.length;
    return c.json({ message: n === 1 ? 'Gig added.' : `${n} classes added.`, ...added } satisfies GigsAddedView, 201);
  })
  .put('/:id', validateJson(gigUpdate), async (c) => {
    const { db, env } = c.var.services;
    const gigId = c.req.param('id');
    if (!validId(gigId)) return c.json({ message: GIG_NOT_FOUND }, 404);
    const result = await changeGig(db, gigId, c.req.valid('json'), today(env));
    if (!result.ok) return c.json({ message: gigAnswers[result.kind].message }, gigAnswers[result.kind].status);
    return c.json({ ...result.gig, message: 'Saved.' });
  })
  .delete('/:id', async (c) => {
    const gigId = c.req.param('id');
    if (!validId(gigId)) return c.json({ message: GIG_NOT_FOUND }, 404);
    return (await deleteGig(c.var.services.db, gigId)) ? c.json({ message: 'Gig deleted.' }) : c.json({ message: GIG_NOT_FOUND }, 404);
  })
  .post('/:id/end', validateJson(gigEnd), async (c) => {
    const gigId = c.req.param('id');
    if (!validId(gigId)) return c.json({ message: GIG_NOT_FOUND }, 404);
    const result = await endGig(c.var.services.db, gigId, c.req.valid('json').after);
    if (!result.ok) return c.json({ message: gigAnswers[result.kind].message }, gigAnswers[result.kind].status);
    return c.json({ message: `Ended: ${result.removed} later ${result.removed === 1 ? 'class' : 'classes'} removed.`, removed: result.removed });
  });

export const adminTrips = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', async (c) => c.json((await listTrips(c.var.services.db)).map(tripView)))
  .post('/', validateJson(tripInput), async (c) => {
    const { date, purpose, miles } = c.req.valid('json');
    return c.json(tripView(await insertTrip(c.var.services.db, { date, purpose, tenthMiles: toTenths(miles) })), 201);
  })
  .delete('/:id', async (c) => {
    const tripId = c.req.param('id');
    if (!validId(tripId)) return c.json({ message: TRIP_NOT_FOUND }, 404);
    return (await deleteTrip(c.var.services.db, tripId)) ? c.json({ message: 'Trip deleted.' }) : c.json({ message: TRIP_NOT_FOUND }, 404);
  });

export const adminMileageRates = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', async (c) => c.json((await listMileageRates(c.var.services.db)).map(rateView)))
  .put('/:year', validateJson(mileageRateInput), async (c) => {
    const year = bookYear.safeParse(c.req.param('year'));
    if (!year.success || !/^\d{4}$/.test(c.req.param('year'))) return c.json({ message: 'Year must be between 2000 and 2100' }, 400);
    const { centsPerMile, name } = c.req.valid('json');
    const row = await putMileageRate(c.var.services.db, { year: year.data, rateTenthCents: Math.round(centsPerMile * 10), name });
    return c.json({ ...rateView(row), message: 'Mileage rate saved.' });
  });

/** The year's report; the same function makes its CSV (api/backoffice/exports.routes.ts). */
export const adminTaxYear = new Hono<AppEnv>().use('*', requireAdmin()).get('/:year', async (c) => {
  const raw = c.req.param('year');
  const year = bookYear.safeParse(raw);
  if (!year.success || !/^\d{4}$/.test(raw)) return c.json({ message: 'Year must be between 2000 and 2100' }, 400);
  const { db, env } = c.var.services;
  return c.json(await taxYearOf(db, env.SITE_TIMEZONE, year.data, today(env)));
});
