/**
 * The waiver is versioned (issue 19): each publish of it is a revision; a class sign-up and a
 * waitlist entry record the revision the student accepted and a hash of its text; a promotion
 * from the waitlist and a returning student keep the one they accepted; an earlier student's
 * record never changes; the admin's list shows it.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { classForm } from '../../helpers/classes.ts';

const server = useTestServer({ env: { TRUST_PROXY: '1' }, resetRateLimits: true });
let admin: string;
beforeAll(async () => {
  admin = await adminCookie(server);
});

let ip = 0;
const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
  server.api(path, { method: 'POST', json, headers: { 'x-forwarded-for': `198.51.100.${++ip}`, ...headers } });

async function addClass(capacity: number) {
  const zone = server.env.SITE_TIMEZONE;
  const date = addDays(zonedNow(zone).date, 9);
  const title = `Waiver Flow ${Math.random().toString(36).slice(2, 8)}`;
  const row = await server.services.db
    .insertInto('events')
    .values({ title, date, time: '09:15', startsAt: zonedInstant(date, '09:15', zone), location: 'Studio', capacity })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, title, date };
}
const form = (cls: { title: string; date: string }, email: string, action: 'signup' | 'waitlist' = 'signup') =>
  classForm(cls, { email, recaptchaToken: `dev:${action}_form_submit` });
const signupOf = (email: string, title: string) =>
  server.services.db
    .selectFrom('classSignups')
    .select(['waiverRevision', 'waiverHash'])
    .where('email', '=', email)
    .where('classTitle', '=', title)
    .executeTakeFirst();

async function publishWaiver(paragraph: string) {
  const page = await (await server.api('/api/admin/pages/waiver', { headers: { cookie: admin } })).json();
  const content = { ...page.content, paragraphs: [...page.content.paragraphs, paragraph] };
  const saved = await server.api('/api/admin/pages/waiver', { method: 'PUT', json: { content, version: page.version }, headers: { cookie: admin } });
  expect(saved.status).toBe(200);
  const published = await server.api('/api/admin/pages/waiver/publish', { method: 'POST', headers: { cookie: admin } });
  expect(published.status).toBe(200);
  return { revision: (await published.json()).revision as number, content };
}

describe('the waiver version each student accepted', () => {
  it('records the published revision and its hash; a new version does not touch earlier records', async () => {
    const cls = await addClass(2);
    expect((await post('/api/signup', form(cls, 'first@example.com'))).status).toBe(201);
    const first = await signupOf('first@example.com', cls.title);
    expect(first?.waiverRevision).toBe(1);
    const revision1 = await server.services.db
      .selectFrom('pageRevisions')
      .select(['content', 'textHash'])
      .where('slug', '=', 'waiver')
      .where('n', '=', 1)
      .executeTakeFirstOrThrow();
    expect(first?.waiverHash).toBe(createHash('sha256').update(revision1.content).digest('hex'));

    const { revision, content } = await publishWaiver('I will bring water and my own mat.');
    expect(revision).toBe(2);
    expect((await post('/api/signup', form(cls, 'second@example.com'))).status).toBe(201);
    const second = await signupOf('second@example.com', cls.title);
    expect(second?.waiverRevision).toBe(2);
    expect(second?.waiverHash).toBe(createHash('sha256').update(JSON.stringify(content)).digest('hex'));
    // The earlier student's record is as it was.
    expect(await signupOf('first@example.com', cls.title)).toEqual(first);

    const list = await (await server.api('/api/admin/signups', { headers: { cookie: admin } })).json();
    const versions = Object.fromEntries(
      list.filter((r: { classTitle: string }) => r.classTitle === cls.title).map((r: { email: string; waiverRevision: number }) => [r.email, r.waiverRevision]),
    );
    expect(versions).toEqual({ 'first@example.com': 1, 'second@example.com': 2 });
  });

  it('a waitlist entry keeps its version through a promotion, and a returning student keeps the one they signed', async () => {
    const cls = await addClass(1);
    const before = (await server.services.db.selectFrom('pages').select('publishedRevision').where('slug', '=', 'waiver').executeTakeFirstOrThrow())
      .publishedRevision!;
    expect((await post('/api/signup', form(cls, 'seated@example.com'))).status).toBe(201);
    const earlier = await addClass(5);
    expect((await post('/api/signup', form(earlier, 'returner@example.com'))).status).toBe(201);
    const joined = await post('/api/waitlist', form(cls, 'waiting@example.com', 'waitlist'));
    expect(joined.status).toBeLessThan(300);
    const entry = await server.services.db
      .selectFrom('classWaitlist')
      .select(['waiverRevision'])
      .where('email', '=', 'waiting@example.com')
      .executeTakeFirstOrThrow();
    expect(entry.waiverRevision).toBe(before);

    const { revision } = await publishWaiver('Phones stay outside the room.');
    expect(revision).toBe(before + 1);
    // The seated student gives the place back: the one waiting is promoted with the waiver they accepted.
    const seated = await server.services.db
      .selectFrom('classSignups')
      .select('id')
      .where('email', '=', 'seated@example.com')
      .where('classTitle', '=', cls.title)
      .executeTakeFirstOrThrow();
    const removed = await server.api(`/api/signup/${seated.id}`, { method: 'DELETE', headers: { cookie: admin } });
    expect(removed.status).toBeLessThan(300);
    expect((await signupOf('waiting@example.com', cls.title))?.waiverRevision).toBe(before);

    // A returning student signs up with the e-mail alone: the waiver they signed, not today's.
    const other = await addClass(5);
    const back = await post('/api/check-student', { email: 'returner@example.com', classTitle: other.title, date: other.date });
    expect(back.status, await back.clone().text()).toBeLessThan(300);
    expect((await signupOf('returner@example.com', other.title))?.waiverRevision).toBe(before);
  });
});
