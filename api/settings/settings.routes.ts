import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { validateJson } from '../validation.ts';
import {
  MEETING_ROOM_CLEARED,
  MEETING_ROOM_SAVED,
  POSTAL_ADDRESS_SAVED,
  SETTINGS_SAVED,
  meetingRoomRequest,
  postalAddressRequest,
  settingsUpdate,
  type PostalAddressView,
  type SettingsView,
} from '../../contract/settings.ts';
import { postalAddressOf, readSettings, writeSettings } from './settings.repo.ts';

/**
 * Her settings (issue 20), mounted on /api/admin/settings:
 *
 *   GET /   every setting (a setting she never set reads as the spec's default)
 *   PUT /   any of them, each whole (contract/settings.ts validates: whole dollars, min ≤ max,
 *           a place that is an address or an http(s) link); a refusal names the field and
 *           changes nothing
 *   PUT /meeting  {roomUrl}: her own meeting room link (issue 35), '' to clear it
 *   GET /postal-address  the address her newsletters carry now and where it comes from (decision 0059)
 *   PUT /postal-address  {address}: her postal address (CAN-SPAM); '' is refused (POSTAL_ADDRESS_REQUIRED)
 */
export const adminSettings = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', async (c) => c.json({ settings: await readSettings(c.var.services.db) } satisfies SettingsView))
  .put('/', validateJson(settingsUpdate), async (c) => {
    const { db, publisher } = c.var.services;
    const changes = c.req.valid('json');
    await writeSettings(db, changes);
    // Her pages show settings where her words name them ({notice period}, {yoga therapy amounts}): drawn again with the new value.
    // Her licence's mode decides whether /chocolates carries the cottage-food statement (issue 48).
    if (changes.cancelNoticeHours !== undefined || changes.bookingAmounts !== undefined || changes.foodLicence !== undefined)
      await publisher.regenerate({ kind: 'all' });
    return c.json({ settings: await readSettings(db), message: SETTINGS_SAVED } satisfies SettingsView);
  })
  .put('/meeting', validateJson(meetingRoomRequest), async (c) => {
    const { db } = c.var.services;
    const { roomUrl } = c.req.valid('json');
    await writeSettings(db, { meetingRoomUrl: roomUrl });
    return c.json({ settings: await readSettings(db), message: roomUrl === '' ? MEETING_ROOM_CLEARED : MEETING_ROOM_SAVED } satisfies SettingsView);
  })
  .get('/postal-address', async (c) => c.json((await postalAddressOf(c.var.services.db)) satisfies PostalAddressView))
  .put('/postal-address', validateJson(postalAddressRequest), async (c) => {
    const { db } = c.var.services;
    await writeSettings(db, { postalAddress: c.req.valid('json').address });
    const [settings, postal] = await Promise.all([readSettings(db), postalAddressOf(db)]);
    return c.json({ settings, postal, message: POSTAL_ADDRESS_SAVED } satisfies SettingsView & { postal: PostalAddressView });
  });
