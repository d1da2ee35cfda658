import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind, rowCount } from '../../helpers/database.ts';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { itemAt } from '../../helpers/guards.ts';

const server = useTestServer();
let cookie: string;
let zone: string;
beforeAll(async () => {
  cookie = await adminCookie(server);
  zone = server.env.SITE_TIMEZONE;
});

const asAdmin = (path: string, init: RequestInit & { json?: unknown } = {}) =>
  server.api(path, { ...init, headers: { cookie, ...(init.headers as Record<string, string>) } });

const addEvent = (json: Record<string, unknown>) => asAdmin('/api/admin/events', { method: 'POST', json });

const eventCount = () => rowCount(server.services.db, 'events');

const base = { title: 'Gentle Flow', date: '2031-07-01', time: '18:00', location: 'Community Studio', signUpLink: '', isExternal: false };

/** Inserts an event directly, `minutesFromNow` away from now (in the teacher's zone). */
async function eventAt(title: string, minutesFromNow: number) {
  const at = zonedNow(zone, new Date(Date.now() + minutesFromNow * 60_000));
  return server.services.db
    .insertInto('events')
    .values({ title, date: at.date, time: at.time, startsAt: zonedInstant(at.date, at.time, zone) })
    .returning('id')
    .executeTakeFirstOrThrow();
}

describe(`adding events on ${testDbKind()}`, () => {
  it('adds one event with the teacher-zone instant and the default capacity', async () => {
    const res = await addEvent({ ...base, signUpLink: 'https://example.com/book' });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({
      message: 'Event(s) added successfully',
      events: [
        {
          _id: expect.any(String),
          title: 'Gentle Flow',
          date: '2031-07-01',
          time: '18:00',
          // 18:00 in Los Angeles in July is 01:00 UTC the next day.
          startsAt: '2031-07-02T01:00:00.000Z',
          location: 'Community Studio',
          signUpLink: 'https://example.com/book',
          isExternal: false,
          capacity: 12,
          // Issue 35: an hour unless she says.
          minutes: 60,
          isPast: false,
          // Free (issue 34): no price, nothing to refund; her list says it is public and on.
          priceCents: null,
          minPriceCents: null,
          suggestedPriceCents: null,
          maxPriceCents: null,
          refundUntil: null,
          private: false,
          cancelled: false,
        },
      ],
      // Issue 35: nothing in her agenda on that evening.
      overlaps: [],
    });
    const row = await server.services.db.selectFrom('events').selectAll().where('id', '=', body.events[0]._id).executeTakeFirstOrThrow();
    expect(row.seriesId).toBeNull();
    expect(new Date(row.startsAt).toISOString()).toBe('2031-07-02T01:00:00.000Z');
  });

  it('weekly makes 12 events a week apart, one series', async () => {
    const before = await eventCount();
    const res = await addEvent({ ...base, title: 'Weekly Yin', date: '2031-03-04', capacity: 20, repeat: 'weekly' });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.note).toBeUndefined();
    const dates = body.events.map((e: { date: string }) => e.date);
    expect(dates).toEqual(Array.from({ length: 12 }, (_, i) => addDays('2031-03-04', i * 7)));
    expect(body.events.every((e: { capacity: number; time: string }) => e.capacity === 20 && e.time === '18:00')).toBe(true);
    // Across the change to summer time the wall time stays 18:00, the instant moves.
    expect(body.events[1].startsAt).toBe(zonedInstant('2031-03-11', '18:00', zone).toISOString());
    expect(await eventCount()).toBe(before + 12);
    const series = await server.services.db.selectFrom('events').select('seriesId').where('title', '=', 'Weekly Yin').distinct().execute();
    expect(series).toHaveLength(1);
    expect(itemAt(series, 0).seriesId).toEqual(expect.any(String));
  });

  it("monthly makes 6 events a month apart; the 31st falls on shorter months' last day, and says so", async () => {
    const res = await addEvent({ ...base, title: 'Full Moon Workshop', date: '2031-01-31', repeat: 'monthly' });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.message).toBe('Event(s) added successfully');
    expect(body.note).toBe('Some dates fell on the last day of shorter months.');
    expect(body.events.map((e: { date: string }) => e.date)).toEqual(['2031-01-31', '2031-02-28', '2031-03-31', '2031-04-30', '2031-05-31', '2031-06-30']);

    const leap = await (await addEvent({ ...base, title: 'Leap', date: '2031-11-30', repeat: 'monthly' })).json();
    expect(leap.events.map((e: { date: string }) => e.date)).toEqual(['2031-11-30', '2031-12-30', '2032-01-30', '2032-02-29', '2032-03-30', '2032-04-30']);
    expect(leap.note).toBe('Some dates fell on the last day of shorter months.');

    const plain = await (await addEvent({ ...base, title: 'Mid-month', date: '2031-08-15', repeat: 'monthly' })).json();
    expect(plain.events.map((e: { date: string }) => e.date)).toEqual(['2031-08-15', '2031-09-15', '2031-10-15', '2031-11-15', '2031-12-15', '2032-01-15']);
    expect(plain.note).toBeUndefined();
  });

  it("refuses a missing title, date or time with the form's message, and adds nothing", async () => {
    const before = await eventCount();
    for (const missing of [{ title: undefined }, { date: undefined }, { time: undefined }, { title: '   ' }, { date: '' }, { time: null }]) {
      const res = await addEvent({ ...base, ...missing });
      expect(res.status, JSON.stringify(missing)).toBe(400);
      expect((await res.json()).message).toBe('Please fill out all fields');
    }
    expect(await eventCount()).toBe(before);
  });

  it('refuses malformed fields with a message and adds nothing', async () => {
    const before = await eventCount();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ date: '2031-02-30' }, /not a real date/],
      [{ date: '07/01/2031' }, /YYYY-MM-DD/],
      [{ time: '25:00' }, /HH:mm/],
      [{ capacity: 0 }, /at least 1/],
      [{ capacity: 501 }, /at most 500/],
      [{ capacity: 2.5 }, /whole number/],
      [{ signUpLink: 'javascript:alert(1)' }, /http/],
      [{ signUpLink: 'ftp://example.com/x' }, /http/],
      [{ repeat: 'daily' }, /none, weekly or monthly/],
      [{ isExternal: 'yes' }, /true or false/],
      [{ title: 'x'.repeat(201) }, /at most 200/],
    ];
    for (const [change, message] of cases) {
      const res = await addEvent({ ...base, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect((await res.json()).message).toMatch(message);
    }
    expect(await eventCount()).toBe(before);
  });
});

describe('the public event list', () => {
  it('lists the past month and everything ahead in date order, past ones flagged', async () => {
    const tooOld = await eventAt('List: forty days ago', -40 * 24 * 60);
    const lastWeek = await eventAt('List: last week', -7 * 24 * 60);
    const soon = await eventAt('List: in an hour', 60);
    const justGone = await eventAt('List: an hour ago', -60);
    const res = await server.api('/api/events');
    expect(res.status).toBe(200);
    const list = (await res.json()) as { _id: string; title: string; date: string; time: string; startsAt: string; isPast: boolean }[];
    const ids = list.map((e) => e._id);
    expect(ids).not.toContain(tooOld.id);
    const mine = list.filter((e) => e.title.startsWith('List:'));
    expect(mine.map((e) => e._id)).toEqual([lastWeek.id, justGone.id, soon.id]);
    expect(mine.map((e) => e.isPast)).toEqual([true, true, false]);
    const sorted = [...list].sort((a, b) => a.startsAt.localeCompare(b.startsAt));
    expect(list.map((e) => e._id)).toEqual(sorted.map((e) => e._id));
    expect(Object.keys(list[0]!).sort()).toEqual(
      [
        '_id',
        'capacity',
        'date',
        'isExternal',
        'isPast',
        'location',
        'signUpLink',
        'startsAt',
        'time',
        'title',
        'priceCents',
        'minPriceCents',
        'suggestedPriceCents',
        'maxPriceCents',
        'refundUntil',
        'minutes',
      ].sort(),
    );
  });

  it("with from and to, lists only those days (inclusive, in the teacher's zone), past ones too", async () => {
    const insert = (title: string, date: string, time: string) =>
      server.services.db
        .insertInto('events')
        .values({ title, date, time, startsAt: zonedInstant(date, time, zone) })
        .returning('id')
        .executeTakeFirstOrThrow();
    // Far from every other test's dates; the edges are the first and last minute of the range.
    const before = await insert('Range: day before', '2033-02-28', '23:59');
    const first = await insert('Range: first minute', '2033-03-01', '00:00');
    const last = await insert('Range: last minute', '2033-04-11', '23:59');
    const after = await insert('Range: day after', '2033-04-12', '00:00');
    const res = await server.api('/api/events?from=2033-03-01&to=2033-04-11');
    expect(res.status).toBe(200);
    const list = (await res.json()) as { _id: string; date: string }[];
    expect(list.map((e) => e._id)).toEqual([first.id, last.id]);
    expect(list.map((e) => e._id)).not.toContain(before.id);
    expect(list.map((e) => e._id)).not.toContain(after.id);

    // Long past days are there when asked for (the calendar shows them disabled).
    const old = await insert('Range: long ago', '2020-05-05', '10:00');
    const past = (await (await server.api('/api/events?from=2020-05-01&to=2020-05-31')).json()) as { _id: string; isPast: boolean }[];
    expect(past).toEqual([expect.objectContaining({ _id: old.id, isPast: true })]);
  });

  it('refuses a half, reversed, malformed or too long range with a message', async () => {
    for (const [query, message] of [
      ['from=2033-03-01', 'Give both from and to, or neither'],
      ['to=2033-03-01', 'Give both from and to, or neither'],
      ['from=2033-03-10&to=2033-03-01', 'from must not be after to'],
      ['from=2033-02-30&to=2033-03-01', 'Date is not a real date'],
      ['from=tomorrow&to=2033-03-01', 'Date must look like YYYY-MM-DD'],
      ['from=2033-01-01&to=2033-12-31', 'Ask for at most 62 days at a time'],
    ] as const) {
      const res = await server.api(`/api/events?${query}`);
      expect(res.status, query).toBe(400);
      expect((await res.json()).message, query).toContain(message);
    }
    // 62 days is the most: 61 days apart, inclusive.
    expect((await server.api('/api/events?from=2033-01-01&to=2033-03-03')).status).toBe(200);
  });
});

describe('editing events', () => {
  it('changes the given fields, keeps the others and recomputes the instant', async () => {
    const created = (await (await addEvent({ ...base, title: 'To edit', date: '2031-09-10', capacity: 8 })).json()).events[0];
    const res = await asAdmin(`/api/events/${created._id}`, {
      method: 'PUT',
      json: { date: '2031-12-10', time: '09:30', location: 'Riverside Park', _id: created._id, isPast: true },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.message).toBe('Event updated successfully');
    expect(body.event).toMatchObject({
      _id: created._id,
      title: 'To edit',
      date: '2031-12-10',
      time: '09:30',
      location: 'Riverside Park',
      capacity: 8,
      isPast: false,
      startsAt: zonedInstant('2031-12-10', '09:30', zone).toISOString(),
    });
    const row = await server.services.db.selectFrom('events').selectAll().where('id', '=', created._id).executeTakeFirstOrThrow();
    expect(new Date(row.startsAt).toISOString()).toBe(zonedInstant('2031-12-10', '09:30', zone).toISOString());
    expect(row.title).toBe('To edit');

    // The whole inline form, as the dashboard sends it.
    const full = await asAdmin(`/api/events/${created._id}`, {
      method: 'PUT',
      json: { ...base, title: 'Edited', signUpLink: 'https://example.com/x', isExternal: true, capacity: 30 },
    });
    expect(full.status).toBe(200);
    expect((await full.json()).event).toMatchObject({ title: 'Edited', date: base.date, isExternal: true, capacity: 30, signUpLink: 'https://example.com/x' });
  });

  it('refuses blank required fields and bad values, changing nothing', async () => {
    const created = (await (await addEvent({ ...base, title: 'Keep me' })).json()).events[0];
    const before = await server.services.db.selectFrom('events').selectAll().where('id', '=', created._id).executeTakeFirstOrThrow();
    for (const [json, message] of [
      [{ title: '' }, /^Please fill out all fields$/],
      [{ time: '  ' }, /^Please fill out all fields$/],
      [{ date: '2031-13-01' }, /YYYY-MM-DD|not a real date/],
      [{ capacity: -1 }, /at least 1/],
      [{ signUpLink: 'data:text/html,hi' }, /http/],
    ] as const) {
      const res = await asAdmin(`/api/events/${created._id}`, { method: 'PUT', json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect((await res.json()).message).toMatch(message);
    }
    const after = await server.services.db.selectFrom('events').selectAll().where('id', '=', created._id).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const unknown = await asAdmin('/api/events/00000000-0000-0000-0000-000000000000', { method: 'PUT', json: { title: 'X' } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Event not found' });
    const malformed = await asAdmin(`/api/events/${encodeURIComponent("1' or '1'='1")}`, { method: 'PUT', json: { title: 'X' } });
    expect(malformed.status).toBe(400);
  });
});

describe('bulk delete', () => {
  it('deletes the selected events only and says how many; their sign-ups stay', async () => {
    const series = (await (await addEvent({ ...base, title: 'Bulk', date: '2032-05-04', repeat: 'weekly' })).json()).events as { _id: string }[];
    const chosen = series.slice(0, 3).map((e) => e._id);
    const signup = await server.services.db
      .insertInto('classSignups')
      .values({ eventId: chosen[0]!, classTitle: 'Bulk', date: '2032-05-04', name: 'Ana', email: 'ana@example.com' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const before = await eventCount();
    const res = await asAdmin('/api/events/bulk', {
      method: 'DELETE',
      json: { eventIds: [...chosen, chosen[0], '00000000-0000-0000-0000-000000000000'] },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: 3 });
    expect(await eventCount()).toBe(before - 3);
    const left = await server.services.db.selectFrom('events').select('id').where('title', '=', 'Bulk').execute();
    expect(left.map((r) => r.id).sort()).toEqual(
      series
        .slice(3)
        .map((e) => e._id)
        .sort(),
    );
    const kept = await server.services.db.selectFrom('classSignups').select('eventId').where('id', '=', signup.id).executeTakeFirstOrThrow();
    expect(kept.eventId).toBeNull();
  });

  it('refuses an empty, oversized or malformed list and deletes nothing', async () => {
    await addEvent({ ...base, title: 'Survivor' });
    const before = await eventCount();
    for (const json of [{ eventIds: [] }, { eventIds: Array.from({ length: 501 }, (_, i) => `id${i}`) }, { eventIds: 'all' }, {}, { eventIds: ['a b'] }]) {
      const res = await asAdmin('/api/events/bulk', { method: 'DELETE', json });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toEqual(expect.any(String));
    }
    expect(await eventCount()).toBe(before);
  });
});

describe('class status', () => {
  it('compares sign-ups with the capacity of the class on that date', async () => {
    const event = (await (await addEvent({ ...base, title: 'Tiny Class', date: '2031-10-02', capacity: 2 })).json()).events[0];
    const status = async () => {
      const res = await server.api(`/api/class-status?classTitle=${encodeURIComponent('Tiny Class')}&date=2031-10-02`);
      expect(res.status).toBe(200);
      return res.json();
    };
    expect(await status()).toEqual({ isFull: false, capacity: 2, taken: 0 });
    const { db } = server.services;
    // One sign-up linked by id, one by title and date only; one for another date doesn't count.
    await db
      .insertInto('classSignups')
      .values({ eventId: event._id, classTitle: 'Tiny Class', date: '2031-10-02', name: 'A', email: 'a@example.com' })
      .execute();
    expect(await status()).toEqual({ isFull: false, capacity: 2, taken: 1 });
    await db.insertInto('classSignups').values({ classTitle: 'Tiny Class', date: '2031-10-09', name: 'C', email: 'c@example.com' }).execute();
    await db.insertInto('classSignups').values({ classTitle: 'Tiny Class', date: '2031-10-02', name: 'B', email: 'b@example.com' }).execute();
    expect(await status()).toEqual({ isFull: true, capacity: 2, taken: 2 });
  });

  it('answers 404 for an unknown class and 400 without its title or date', async () => {
    const unknown = await server.api('/api/class-status?classTitle=Nope&date=2031-10-02');
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toEqual(expect.any(String));
    expect((await server.api('/api/class-status?classTitle=Nope')).status).toBe(400);
    expect((await server.api('/api/class-status?date=2031-10-02')).status).toBe(400);
    expect((await server.api('/api/class-status?classTitle=Nope&date=tomorrow')).status).toBe(400);
  });
});
