/**
 * Issue 12, item 6 (the edges): far-off dates, wall times the teacher's clocks skip or show
 * twice, invisible characters in names and e-mails, and the signature's sandbox.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { resetRateLimits } from '../../../api/middleware/rate-limit.ts';
import { useTestServer } from '../../helpers/server.ts';
import { recordingRealtime } from '../../helpers/realtime.ts';
import { ENDPOINTS, Fixtures, cookieFor, nameOf, pathOf, type Endpoint } from '../../helpers/endpoints.ts';
import { DATE_OUT_OF_RANGE, ambiguousTimeNote, invisibleCharactersMessage, nonexistentTimeMessage } from '../../../contract/common.ts';
import type { SlotsAddedView } from '../../../contract/slots.ts';
import type { EventsAddedView } from '../../../contract/events.ts';
import { itemAt } from '../../helpers/guards.ts';

const server = useTestServer();
let fx: Fixtures;
let admin: string;
const LA = 'America/Los_Angeles';

beforeAll(async () => {
  server.services.realtime = recordingRealtime();
  fx = new Fixtures(server);
  admin = await fx.adminCookie();
});

const asAdmin = (path: string, method: string, json?: unknown) =>
  server.api(path, { method, headers: { cookie: admin }, ...(json === undefined ? {} : { json }) });
const body = async (res: Response) => (await res.json()) as { message: string; issues?: { path: string; message: string }[] };

/** The US rules: clocks spring forward on March's second Sunday and fall back on November's first, at 02:00. */
function nthSunday(year: number, month: number, n: number): string {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  const day = 1 + ((7 - first) % 7) + (n - 1) * 7;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
// Next year's, so they are always in the future.
const YEAR = new Date().getUTCFullYear() + 1;
const SPRING = nthSunday(YEAR, 3, 2);
const FALL = nthSunday(YEAR, 11, 1);

describe('dates outside 2000–2100 answer a clear 400, not a 500', () => {
  it('GET /api/events?from=&to=', async () => {
    for (const [from, to] of [
      ['9999-12-01', '9999-12-31'],
      ['1999-12-01', '1999-12-31'],
      ['2100-12-25', '2101-01-05'],
    ]) {
      const res = await server.api(`/api/events?from=${from}&to=${to}`);
      expect(res.status, from).toBe(400);
      expect(JSON.stringify(await body(res))).toContain(DATE_OUT_OF_RANGE);
    }
    expect((await server.api('/api/events?from=2100-12-01&to=2100-12-31')).status).toBe(200);
  });

  it('adding a slot, adding an event, editing an event, the class status', async () => {
    for (const date of ['9999-12-01', '0001-01-01', '2101-01-01']) {
      const slot = await asAdmin('/api/bookings', 'POST', { slots: [{ date, time: '09:00' }] });
      expect(slot.status, date).toBe(400);
      expect(JSON.stringify(await body(slot))).toContain(DATE_OUT_OF_RANGE);
      const event = await asAdmin('/api/admin/events', 'POST', { title: 'Far Flow', date, time: '09:00', repeat: 'monthly' });
      expect(event.status, date).toBe(400);
      expect(JSON.stringify(await body(event))).toContain(DATE_OUT_OF_RANGE);
      const existing = await fx.event();
      const edit = await asAdmin(`/api/events/${existing.id}`, 'PUT', { date });
      expect(edit.status, date).toBe(400);
      const status = await server.api(`/api/class-status?classTitle=Flow&date=${date}`);
      expect(status.status, date).toBe(400);
    }
    // The last day of the range is fine, and a monthly series may run past it.
    const last = await asAdmin('/api/bookings', 'POST', { slots: [{ date: '2100-12-31', time: '09:00' }] });
    expect(last.status).toBe(201);
    const series = await asAdmin('/api/admin/events', 'POST', { title: 'Century Flow', date: '2100-12-15', time: '09:00', repeat: 'monthly' });
    expect(series.status).toBe(201);
  });
});

describe(`wall times in ${LA}`, () => {
  it(`refuses a slot in the hour the clocks skip (${SPRING} 02:00–02:59)`, async () => {
    for (const time of ['02:00', '02:30', '02:59']) {
      const res = await asAdmin('/api/bookings', 'POST', { slots: [{ date: SPRING, time }] });
      expect(res.status, time).toBe(400);
      expect((await body(res)).message).toBe(nonexistentTimeMessage(SPRING, time, LA));
    }
    // One skipped time among good ones refuses the whole request: nothing is added.
    const mixed = await asAdmin('/api/bookings', 'POST', {
      slots: [
        { date: SPRING, time: '10:00' },
        { date: SPRING, time: '02:15' },
      ],
    });
    expect(mixed.status).toBe(400);
    const rows = await server.services.db.selectFrom('slots').select('time').where('date', '=', SPRING).execute();
    expect(rows).toEqual([]);
    // The hours around the gap exist.
    const around = await asAdmin('/api/bookings', 'POST', {
      slots: [
        { date: SPRING, time: '01:59' },
        { date: SPRING, time: '03:00' },
      ],
    });
    expect(around.status).toBe(201);
    const added = (await around.json()) as SlotsAddedView;
    expect(added.slots.map((s) => s.startsAt).sort()).toEqual([`${SPRING}T09:59:00.000Z`, `${SPRING}T10:00:00.000Z`]);
    expect(added.warnings).toBeUndefined();
  });

  it('refuses an event (alone, or one date of a weekly series) in the skipped hour, and an edit into it', async () => {
    const one = await asAdmin('/api/admin/events', 'POST', { title: 'Night Flow', date: SPRING, time: '02:30' });
    expect(one.status).toBe(400);
    expect((await body(one)).message).toBe(nonexistentTimeMessage(SPRING, '02:30', LA));
    // Weekly from two weeks before: the third class falls on the spring-forward day.
    const start = new Date(Date.parse(`${SPRING}T00:00:00Z`) - 14 * 86_400_000).toISOString().slice(0, 10);
    const series = await asAdmin('/api/admin/events', 'POST', { title: 'Night Flow', date: start, time: '02:30', repeat: 'weekly' });
    expect(series.status).toBe(400);
    expect((await body(series)).message).toBe(nonexistentTimeMessage(SPRING, '02:30', LA));
    expect(await server.services.db.selectFrom('events').select('id').where('title', '=', 'Night Flow').execute()).toEqual([]);

    const existing = await fx.event();
    const edit = await asAdmin(`/api/events/${existing.id}`, 'PUT', { date: SPRING, time: '02:10' });
    expect(edit.status).toBe(400);
    expect((await body(edit)).message).toBe(nonexistentTimeMessage(SPRING, '02:10', LA));
  });

  it(`takes an ambiguous time (${FALL} 01:30) as its first occurrence and says so`, async () => {
    const slot = await asAdmin('/api/bookings', 'POST', { slots: [{ date: FALL, time: '01:30' }] });
    expect(slot.status).toBe(201);
    const added = (await slot.json()) as SlotsAddedView;
    expect(added.message).toBe('Slots added successfully.');
    expect(added.added).toBe(1);
    // 01:30 PDT (UTC-7), not 01:30 PST an hour later.
    expect(itemAt(added.slots, 0).startsAt).toBe(`${FALL}T08:30:00.000Z`);
    expect(added.warnings).toEqual([ambiguousTimeNote(FALL, '01:30', LA)]);

    const event = await asAdmin('/api/admin/events', 'POST', { title: 'Owl Flow', date: FALL, time: '01:30' });
    expect(event.status).toBe(201);
    const events = (await event.json()) as EventsAddedView;
    expect(itemAt(events.events, 0).startsAt).toBe(`${FALL}T08:30:00.000Z`);
    expect(events.warnings).toEqual([ambiguousTimeNote(FALL, '01:30', LA)]);

    const existing = await fx.event();
    const edit = await asAdmin(`/api/events/${existing.id}`, 'PUT', { date: FALL, time: '01:45' });
    expect(edit.status).toBe(200);
    const edited = (await edit.json()) as { event: { startsAt: string }; warnings?: string[] };
    expect(edited.event.startsAt).toBe(`${FALL}T08:45:00.000Z`);
    expect(edited.warnings).toEqual([ambiguousTimeNote(FALL, '01:45', LA)]);

    // An ordinary time says nothing extra.
    const plain = await asAdmin('/api/bookings', 'POST', { slots: [{ date: FALL, time: '09:00' }] });
    expect(((await plain.json()) as SlotsAddedView).warnings).toBeUndefined();
  });
});

describe('names and e-mails refuse bidi controls and zero-width characters', () => {
  const INVISIBLE: [string, string][] = [
    ['RIGHT-TO-LEFT OVERRIDE', '\u202e'],
    ['LEFT-TO-RIGHT EMBEDDING', '\u202a'],
    ['RIGHT-TO-LEFT ISOLATE', '\u2067'],
    ['POP DIRECTIONAL ISOLATE', '\u2069'],
    ['RIGHT-TO-LEFT MARK', '\u200f'],
    ['LEFT-TO-RIGHT MARK', '\u200e'],
    ['ARABIC LETTER MARK', '\u061c'],
    ['ZERO WIDTH SPACE', '\u200b'],
    ['ZERO WIDTH NON-JOINER', '\u200c'],
    ['ZERO WIDTH JOINER', '\u200d'],
    ['WORD JOINER', '\u2060'],
    ['BYTE ORDER MARK', '\ufeff'],
    // Issue 29: the invisible characters names still took.
    ['SOFT HYPHEN', '\u00ad'],
    ['INVISIBLE TIMES', '\u2062'],
    ['COMBINING GRAPHEME JOINER', '\u034f'],
    ['MONGOLIAN VOWEL SEPARATOR', '\u180e'],
    ['HANGUL FILLER', '\u3164'],
    ['HALFWIDTH HANGUL FILLER', '\uffa0'],
    ['TAG LATIN SMALL LETTER A', '\u{E0061}'],
    ['CANCEL TAG', '\u{E007F}'],
  ];
  /** Whole names (issue 29): invisible, or joiners where no script needs them. */
  const INVISIBLE_NAMES: [string, string][] = [
    ['HANGUL FILLER alone', '\u3164'],
    ['HANGUL CHOSEONG FILLER alone', '\u115f'],
    ['ZERO WIDTH NON-JOINER alone', '\u200c'],
    ['ZERO WIDTH JOINER among Cyrillic letters', 'Ан\u200dна Лима'],
    ['ZERO WIDTH JOINER among Greek letters', 'Ἀλέ\u200dξανδρος'],
  ];
  /** Names whose scripts need a joiner: taken everywhere a name is. */
  const JOINED_NAMES = ['مهر\u200cانگیز کاظمی', 'क्\u200dषमा शर्मा'];
  const NAME_FIELDS = ['name', 'firstName', 'lastName', 'preferredName', 'email'];
  // A product's, a location's or a mileage rate's `name` is the admin's own label, not a person
  // (free text: bidi refused, joiners allowed, tests/api/system/hardening-text.test.ts): only people's names and addresses here.
  const forms = ENDPOINTS.filter(
    (e) =>
      e.body === 'json' &&
      !e.route.startsWith('/api/chocolates') &&
      !e.route.startsWith('/api/admin/locations') &&
      !e.route.startsWith('/api/admin/mileage-rates') &&
      Object.entries(e.fields ?? {}).some(([n, f]) => NAME_FIELDS.includes(n) && f.in !== 'query' && !f.lenient),
  );

  it('covers every form that takes a name or an e-mail', () => {
    const names = forms.map(nameOf);
    for (const form of [
      'POST /api/contact',
      'POST /api/publicBookings/request',
      'POST /api/subscribers/subscribe',
      'POST /api/signup',
      'POST /api/check-student',
      'POST /api/user/register',
      'POST /api/user/login',
      'PUT /api/user/:id/update',
      'PUT /api/bookings/:slotId/book',
      'POST /api/admin/login',
    ]) {
      expect(names).toContain(form);
    }
  });

  async function send(endpoint: Endpoint, field: string, value: string) {
    await resetRateLimits();
    const example = await endpoint.example(fx);
    const cookie = await cookieFor(endpoint, example, fx);
    const headers: Record<string, string> = { ...example.headers };
    if (cookie) headers.cookie = cookie;
    return server.api(pathOf(endpoint, example), { method: endpoint.method, headers, json: { ...example.json, [field]: value } });
  }

  for (const endpoint of forms) {
    it(`${nameOf(endpoint)}`, async () => {
      const fields = Object.entries(endpoint.fields ?? {}).filter(([n, f]) => NAME_FIELDS.includes(n) && f.in !== 'query' && !f.lenient);
      for (const [field] of fields) {
        const label =
          field === 'email'
            ? 'Email'
            : field === 'firstName'
              ? 'First name'
              : field === 'lastName'
                ? 'Last name'
                : field === 'preferredName'
                  ? 'Preferred name'
                  : 'Name';
        for (const [what, char] of INVISIBLE) {
          const original = field === 'email' ? fx.email('invisible') : 'Ana Lima';
          const at = original.indexOf(field === 'email' ? '@' : ' ');
          const res = await send(endpoint, field, `${original.slice(0, at)}${char}${original.slice(at)}`);
          expect(res.status, `${field} with ${what}`).toBe(400);
          expect(JSON.stringify(await res.json()), `${field} with ${what}`).toContain(invisibleCharactersMessage(label));
        }
        if (field === 'email') {
          // One inbox, one allowance: a quoted name is refused (a trailing dot is dropped: tests/api/system/hardening-text.test.ts).
          const [local, domain] = fx.email('quoted').split('@');
          const res = await send(endpoint, field, `"${local}"@${domain}`);
          expect(res.status, 'a quoted e-mail name').toBe(400);
          continue;
        }
        for (const [what, value] of INVISIBLE_NAMES) {
          const res = await send(endpoint, field, value);
          expect(res.status, `${field}: ${what}`).toBe(400);
          expect(JSON.stringify(await res.json()), `${field}: ${what}`).toContain(invisibleCharactersMessage(label));
        }
        for (const value of JOINED_NAMES) {
          const res = await send(endpoint, field, value);
          expect(res.status, `${field}: ${value} (${await res.clone().text()})`).toBeLessThan(300);
        }
      }
    });
  }

  it('free text keeps joiners: an emoji family in a contact message is accepted', async () => {
    await resetRateLimits();
    const res = await server.api('/api/contact', {
      method: 'POST',
      json: { name: 'Ana Lima', email: fx.email('emoji'), message: 'Hello 👨\u200d👩\u200d👧 family class?', recaptchaToken: 'dev:contact_form_submit' },
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
  });
});

describe('no body shape gives a 500 (issue 29)', () => {
  const NOT_OBJECTS = ['null', '[]', '[{}]', '0', '-1.5', '"text"', 'true', 'false'];
  // Routes whose JSON body is optional (a publish's { version }, a newsletter's { full }): listed
  // as reading none, since no body is a valid request; a body sent must still be an object.
  const OPTIONAL_BODY = ['POST /api/admin/pages/:slug/publish', 'POST /api/admin/posts/:id/publish', 'POST /api/admin/posts/:id/newsletter'];
  const routes = ENDPOINTS.filter((e) => e.body === 'json' || OPTIONAL_BODY.includes(nameOf(e)));

  it('covers every JSON route and the optional bodies', () => {
    expect(
      routes
        .filter((e) => OPTIONAL_BODY.includes(nameOf(e)))
        .map(nameOf)
        .sort(),
    ).toEqual([...OPTIONAL_BODY].sort());
    expect(routes.length).toBeGreaterThan(60);
  });

  it('answers null, arrays and scalars with 400 and a message on every JSON route', async () => {
    const failures: string[] = [];
    for (const endpoint of routes) {
      await resetRateLimits();
      const example = await endpoint.example(fx);
      const cookie = await cookieFor(endpoint, example, fx);
      const headers: Record<string, string> = { ...example.headers, 'content-type': 'application/json' };
      if (cookie) headers.cookie = cookie;
      // Resend's events are verified by their signature over the body first: any other body is unverified (401).
      const want = endpoint.route === '/api/webhooks/resend' ? 401 : 400;
      for (const body of NOT_OBJECTS) {
        const res = await server.api(pathOf(endpoint, example), { method: endpoint.method, headers, body });
        const text = await res.text();
        let message: unknown;
        try {
          message = (JSON.parse(text) as { message?: unknown }).message;
        } catch {
          message = undefined;
        }
        if (res.status !== want || typeof message !== 'string' || !message) failures.push(`${nameOf(endpoint)} ${body}: ${res.status} ${text.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('class sign-up signatures', () => {
  it('are served sandboxed, with nothing allowed to load and no sniffing', async () => {
    const signup = await fx.signup();
    const res = await server.api(`/api/admin/signups/${signup.id}/signature`, { headers: { cookie: admin } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const csp = (res.headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim());
    expect(csp).toContain('sandbox');
    expect(csp).toContain("default-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
  });
});
