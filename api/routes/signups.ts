import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import type { DB } from '../../db/client.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { verifyHuman } from '../middleware/human.ts';
import { validateJson, validateParams } from '../validation.ts';
import { id } from '../schemas/common.ts';
import {
  ALREADY_SIGNED_UP,
  CLASS_EXTERNAL,
  CLASS_FULL,
  CLASS_NOT_FOUND,
  CLASS_PAST,
  EMAIL_NOT_FOUND,
  REGISTRATION_CONFIRMED,
  SIGNED_UP,
  classSignup,
  decodeSignature,
  returningStudent,
} from '../schemas/signups.ts';
import {
  classSeats,
  deleteSignup,
  findClass,
  findSignature,
  insertSignup,
  latestStudentProfile,
  listSignups,
  type ClassEvent,
} from '../../db/queries/signups.ts';
import { deliver, signupMails } from '../services/mail/templates.ts';

const tenMinutes = 10 * 60_000;

interface Student {
  classTitle: string;
  date: string;
  name: string;
  email: string;
  phone: string;
  signaturePng: Uint8Array | null;
}

type Enrolment = { ok: true; id: string; event: ClassEvent } | { ok: false; status: 400 | 404 | 409; message: string };

/**
 * Signs `student` up for the class, all checks and the insert in one transaction that holds the
 * event's row lock: concurrent sign-ups for one class queue on it, so the count each one sees
 * includes the others and the class never goes over capacity. The unique constraint on
 * (class_title, date, email) settles twins from one person.
 */
async function enrol(db: DB, student: Student, alreadyStatus: 400 | 409): Promise<Enrolment> {
  return db.transaction().execute(async (trx): Promise<Enrolment> => {
    const event = await findClass(trx, student.classTitle, student.date, { lock: true });
    if (!event) return { ok: false, status: 404, message: CLASS_NOT_FOUND };
    if (event.isExternal) return { ok: false, status: 400, message: CLASS_EXTERNAL };
    if (new Date(event.startsAt).getTime() <= Date.now()) return { ok: false, status: 400, message: CLASS_PAST };
    const seats = await classSeats(trx, event, student.email);
    if (seats.mine) return { ok: false, status: alreadyStatus, message: ALREADY_SIGNED_UP };
    if (seats.taken >= event.capacity) return { ok: false, status: 409, message: CLASS_FULL };
    const row = await insertSignup(trx, {
      eventId: event.id,
      classTitle: student.classTitle,
      date: student.date,
      name: student.name,
      email: student.email,
      phone: student.phone,
      waiverAccepted: true,
      signaturePng: student.signaturePng,
    });
    if (!row) return { ok: false, status: alreadyStatus, message: ALREADY_SIGNED_UP };
    return { ok: true, id: row.id, event };
  });
}

/**
 * POST /api/signup: a new student signs up with the waiver and a drawn signature.
 * DELETE /api/signup/{id}: the admin removes a sign-up.
 */
export const signups = new Hono<AppEnv>()
  .post('/', rateLimit({ bucket: 'signup', max: 10, windowMs: tenMinutes }), validateJson(classSignup), async (c) => {
    const { db, env, mailer } = c.var.services;
    const body = c.req.valid('json');
    const signature = decodeSignature(body.signature);
    if (!signature.ok) return c.json({ message: signature.message }, signature.status);
    await verifyHuman(c, body.recaptchaToken, 'signup_form_submit');
    const student = { classTitle: body.classTitle, date: body.date, name: body.name, email: body.email, phone: body.phone };
    const result = await enrol(db, { ...student, signaturePng: signature.bytes }, 409);
    if (!result.ok) return c.json({ message: result.message }, result.status);
    await deliver(mailer, signupMails(env, { id: result.id, ...student, returning: false }, result.event));
    return c.json({ message: SIGNED_UP, _id: result.id }, 201);
  })
  .delete('/:id', requireAdmin(), validateParams(z.object({ id })), async (c) => {
    const removed = await deleteSignup(c.var.services.db, c.req.valid('param').id);
    if (!removed) return c.json({ message: 'Sign-up not found.' }, 404);
    return c.json({ message: 'Sign-up deleted.' });
  });

/**
 * POST /api/check-student: a returning student signs up with the e-mail alone. Known means a
 * previous sign-up with an accepted waiver, whose name, phone and signature are reused; anyone
 * else signs up as a new student, which is where the waiver gets signed. The answer tells
 * whether an e-mail is known, hence the tight limit.
 */
export const checkStudent = new Hono<AppEnv>().post(
  '/',
  rateLimit({ bucket: 'check-student', max: 10, windowMs: tenMinutes }),
  validateJson(returningStudent),
  async (c) => {
    const { db, env, mailer } = c.var.services;
    const { email, classTitle, date } = c.req.valid('json');
    if (!(await findClass(db, classTitle, date))) return c.json({ message: CLASS_NOT_FOUND }, 404);
    const profile = await latestStudentProfile(db, email);
    if (!profile) return c.json({ message: EMAIL_NOT_FOUND }, 404);
    const student = { classTitle, date, name: profile.name, email, phone: profile.phone };
    const result = await enrol(db, { ...student, signaturePng: profile.signaturePng }, 400);
    if (!result.ok) return c.json({ message: result.message }, result.status);
    await deliver(mailer, signupMails(env, { id: result.id, ...student, returning: true }, result.event));
    return c.json({ message: REGISTRATION_CONFIRMED, _id: result.id });
  },
);

/** The admin's Classes page: GET /api/admin/signups, GET /api/admin/signups/{id}/signature. */
export const adminSignups = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', async (c) => {
    const rows = await listSignups(c.var.services.db);
    return c.json(
      rows.map((r) => ({ _id: r.id, date: r.date, classTitle: r.classTitle, name: r.name, email: r.email, phone: r.phone, hasSignature: r.hasSignature })),
    );
  })
  .get('/:id/signature', validateParams(z.object({ id })), async (c) => {
    const row = await findSignature(c.var.services.db, c.req.valid('param').id);
    if (!row?.signaturePng) return c.json({ message: 'No signature for this sign-up.' }, 404);
    return c.body(new Uint8Array(row.signaturePng), 200, {
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'",
      'cache-control': 'private, no-store',
      'content-disposition': 'inline; filename="signature.png"',
    });
  });
