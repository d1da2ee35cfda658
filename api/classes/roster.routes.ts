/**
 * The roster on her phone (issue 34), mounted on /api/admin; each route guards itself, as the
 * routers beside it on /api/admin do.
 *
 *   GET /api/admin/events/{id}/roster      the event, its people in sign-up order, its series' attendance, the waiver
 *   PUT /api/admin/events/{id}/attendance  {signupId, status: present | noShow} -> the row's mark
 *   POST /api/admin/events/{id}/walk-ins   {name, email, phone?, signature?} -> 201 {_id}: checked in at the door
 *   GET /api/admin/users/{id}/classes      the client's classes (by e-mail) with their marks
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { regenerateAfter } from '../middleware/regenerate-after.ts';
import { validateJson, validateParams } from '../validation.ts';
import { id } from '../../contract/common.ts';
import { decodeSignature } from '../../contract/signups.ts';
import { CLIENT_NOT_FOUND } from '../../contract/practice.ts';
import {
  ATTENDANCE_SAVED,
  EVENT_CANCELLED,
  NO_SHOW_BEFORE_START,
  ROSTER_EVENT_NOT_FOUND,
  SIGNUP_NOT_OF_EVENT,
  SIGNUP_STILL_PAYING,
  WALK_IN_ADDED,
  WALK_IN_ALREADY,
  attendanceChange,
  walkIn,
  type AttendanceSavedView,
  type WalkInAddedView,
} from '../../contract/roster.ts';
import { markAttendance, type AttendanceRefusal } from './attendance.ts';
import { addWalkIn, type WalkInRefusal } from './walk-ins.ts';
import { classesOfClient, rosterOf } from './roster.ts';

type Refused = { status: 404 | 409; message: string };

/** What both her marks and a walk-in find first: the event itself. */
const eventRefusals = {
  'event-not-found': { status: 404, message: ROSTER_EVENT_NOT_FOUND },
  'event-cancelled': { status: 409, message: EVENT_CANCELLED },
} as const satisfies Record<string, Refused>;

const attendanceRefusals: Record<AttendanceRefusal, Refused> = {
  ...eventRefusals,
  'signup-not-found': { status: 404, message: SIGNUP_NOT_OF_EVENT },
  'still-paying': { status: 409, message: SIGNUP_STILL_PAYING },
  'not-started': { status: 409, message: NO_SHOW_BEFORE_START },
};

const walkInRefusals: Record<WalkInRefusal, Refused> = {
  ...eventRefusals,
  'already-signed-up': { status: 409, message: WALK_IN_ALREADY },
};

const params = z.object({ id });

export const adminRoster = new Hono<AppEnv>()
  .get('/events/:id/roster', requireAdmin(), validateParams(params), async (c) => {
    const roster = await rosterOf(c.var.services, c.req.valid('param').id);
    if (!roster) return c.json({ message: ROSTER_EVENT_NOT_FOUND }, 404);
    return c.json(roster);
  })
  .put('/events/:id/attendance', requireAdmin(), validateParams(params), validateJson(attendanceChange), async (c) => {
    const { signupId, status } = c.req.valid('json');
    const result = await markAttendance(c.var.services, c.req.valid('param').id, signupId, status);
    if (!result.ok) return c.json({ message: attendanceRefusals[result.kind].message }, attendanceRefusals[result.kind].status);
    return c.json({
      message: ATTENDANCE_SAVED,
      _id: result.signupId,
      attendance: result.attendance,
      attendanceAt: result.attendanceAt.toISOString(),
    } satisfies AttendanceSavedView);
  })
  // A walk-in takes a place: the calendar's pages that count places left are made again.
  .post('/events/:id/walk-ins', requireAdmin(), regenerateAfter('classes'), validateParams(params), validateJson(walkIn), async (c) => {
    const body = c.req.valid('json');
    const signature = body.signature === undefined ? null : decodeSignature(body.signature);
    if (signature && !signature.ok) return c.json({ message: signature.message }, signature.status);
    const person = { name: body.name, email: body.email, phone: body.phone, signaturePng: signature ? signature.bytes : null };
    const result = await addWalkIn(c.var.services, c.req.valid('param').id, person);
    if (!result.ok) return c.json({ message: walkInRefusals[result.kind].message }, walkInRefusals[result.kind].status);
    return c.json({ message: WALK_IN_ADDED, _id: result.id } satisfies WalkInAddedView, 201);
  })
  .get('/users/:id/classes', requireAdmin(), validateParams(params), async (c) => {
    const classes = await classesOfClient(c.var.services, c.req.valid('param').id);
    if (!classes) return c.json({ message: CLIENT_NOT_FOUND }, 404);
    return c.json(classes);
  });
