import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { verifyHuman } from '../middleware/human.ts';
import { UNTRUSTED_FILE_CSP } from '../middleware/security-headers.ts';
import { validateJson, validateParams } from '../validation.ts';
import { id } from '../../contract/common.ts';
import {
  CLASS_NOT_FOUND,
  EMAIL_NOT_FOUND,
  REGISTRATION_CONFIRMED,
  SIGNED_UP,
  classSignup,
  decodeSignature,
  returningStudent,
  type SignupRowView,
} from '../../contract/signups.ts';
import { findClass, findSignature, latestStudentProfile, listSignups } from './signups.repo.ts';
import { enrol } from './enrol.ts';
import { sendQueued } from '../mail/outbox.ts';
import { LIMITS } from '../limits/limits.ts';
import { giveBackPlace } from './places.ts';
import { visitorCopyFor } from '../middleware/rate-limit.ts';

/**
 * POST /api/signup: a new student signs up with the waiver and a drawn signature.
 * DELETE /api/signup/{id}: the admin removes a sign-up.
 */
export const signups = new Hono<AppEnv>()
  .post('/', rateLimit(LIMITS.classSignup), validateJson(classSignup), async (c) => {
    const { limits } = c.var.services;
    const body = c.req.valid('json');
    const signature = decodeSignature(body.signature);
    if (!signature.ok) return c.json({ message: signature.message }, signature.status);
    await verifyHuman(c, body.recaptchaToken, 'signup_form_submit');
    const student = { classTitle: body.classTitle, date: body.date, name: body.name, email: body.email, phone: body.phone };
    const visitorCopy = await visitorCopyFor(limits, student.email);
    // The sign-up and its mails in one transaction; the mails leave after its commit.
    const result = await enrol(c.var.services, { ...student, signaturePng: signature.bytes }, { alreadyStatus: 409, returning: false, visitorCopy });
    if (!result.ok) return c.json({ message: result.message }, result.status);
    await sendQueued(c.var.services, result.mails);
    return c.json({ message: SIGNED_UP, _id: result.id }, 201);
  })
  .delete('/:id', requireAdmin(), validateParams(z.object({ id })), async (c) => {
    // The freed place goes to the first on the class's waitlist in the same transaction, with their mails.
    const removed = await giveBackPlace(c.var.services, c.req.valid('param').id, { byAdmin: true });
    if (!removed.ok || removed.already) return c.json({ message: 'Sign-up not found.' }, 404);
    await sendQueued(c.var.services, removed.mails);
    return c.json({ message: 'Sign-up deleted.' });
  });

/**
 * POST /api/check-student: a returning student signs up with the e-mail alone. Known means a
 * previous sign-up with an accepted waiver, whose name, phone and signature are reused; anyone
 * else signs up as a new student, which is where the waiver gets signed. The answer tells
 * whether an e-mail is known, hence the tight limit.
 */
export const checkStudent = new Hono<AppEnv>().post('/', rateLimit(LIMITS.checkStudent), validateJson(returningStudent), async (c) => {
  const { db, limits } = c.var.services;
  const { email, classTitle, date } = c.req.valid('json');
  if (!(await findClass(db, classTitle, date))) return c.json({ message: CLASS_NOT_FOUND }, 404);
  const profile = await latestStudentProfile(db, email);
  if (!profile) return c.json({ message: EMAIL_NOT_FOUND }, 404);
  const student = { classTitle, date, name: profile.name, email, phone: profile.phone };
  const visitorCopy = await visitorCopyFor(limits, student.email);
  // The sign-up and its mails in one transaction; the mails leave after its commit.
  const result = await enrol(
    c.var.services,
    { ...student, signaturePng: profile.signaturePng, waiver: { waiverRevision: profile.waiverRevision, waiverHash: profile.waiverHash } },
    { alreadyStatus: 400, returning: true, visitorCopy },
  );
  if (!result.ok) return c.json({ message: result.message }, result.status);
  await sendQueued(c.var.services, result.mails);
  return c.json({ message: REGISTRATION_CONFIRMED, _id: result.id });
});

/** The admin's Classes page: GET /api/admin/signups, GET /api/admin/signups/{id}/signature. */
export const adminSignups = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', async (c) => {
    const rows = await listSignups(c.var.services.db);
    return c.json(
      rows.map((r): SignupRowView => ({
        _id: r.id,
        date: r.date,
        classTitle: r.classTitle,
        name: r.name,
        email: r.email,
        phone: r.phone,
        hasSignature: Boolean(r.hasSignature),
        waiverRevision: r.waiverRevision,
        waiverHash: r.waiverHash,
        createdAt: new Date(r.createdAt).toISOString(),
      })),
    );
  })
  .get('/:id/signature', validateParams(z.object({ id })), async (c) => {
    const row = await findSignature(c.var.services.db, c.req.valid('param').id);
    if (!row?.signaturePng) return c.json({ message: 'No signature for this sign-up.' }, 404);
    return c.body(new Uint8Array(row.signaturePng), 200, {
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'content-security-policy': UNTRUSTED_FILE_CSP,
      'cache-control': 'private, no-store',
      'content-disposition': 'inline; filename="signature.png"',
    });
  });
