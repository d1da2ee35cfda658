import { useEffect, useMemo, useRef, useState } from 'react';
import { request } from '../lib/http';
import { addMonths, dayLabel, localTimeWithZone, monthGrid, monthLabel, monthOfDay } from '../lib/calendar';
import { MonthGrid, MonthHead } from './MonthGrid';
import { useToday } from './useToday';
import { useHydrated } from './useHydrated';
import type { PageClock } from '../../contract/content.ts';
import type { ClassStatusView, EventView } from '../../contract/events.ts';
import { JOIN_WAITLIST } from '../../contract/class-places.ts';
import { priceWords } from '../lib/event-price';

/** Where a class's Sign Up leads: its own link, or the sign-up choice with title, date and location. */
export function signUpHref(e: EventView): string {
  if (e.isExternal && e.signUpLink) return e.signUpLink;
  const q = `title=${encodeURIComponent(e.title)}&date=${encodeURIComponent(e.date)}&location=${encodeURIComponent(e.location)}`;
  return `/signup-selection?${q}`;
}

/** The new student's form in waitlist mode (the waitlist needs the same waiver and signature). */
const waitlistHref = (e: EventView) => `/signup?date=${e.date}&title=${encodeURIComponent(e.title)}&location=${encodeURIComponent(e.location)}&waitlist=1`;

/** `zone`: the teacher's; times carry its abbreviation, as booking slots do. */
function EventItem({ event, zone }: { event: EventView; zone: string }) {
  const [full, setFull] = useState<boolean | null>(null);
  useEffect(() => {
    if (event.isPast || event.isExternal) return;
    // SPEC.md section 7: class-status is called once per event.
    const q = `classTitle=${encodeURIComponent(event.title)}&date=${encodeURIComponent(event.date)}`;
    request<ClassStatusView>('GET', `/api/class-status?${q}`)
      .then((r) => setFull(r.ok ? r.data.isFull : false))
      .catch(() => setFull(false));
  }, [event]);

  let action;
  if (event.isPast)
    action = (
      <button className="button" type="button" disabled>
        Sign Up
      </button>
    );
  else if (full)
    action = (
      <>
        <button className="button" type="button" disabled>
          Class Full
        </button>
        <a className="button button-quiet" href={waitlistHref(event)}>
          {JOIN_WAITLIST}
          <span className="sr-only"> for {event.title}</span>
        </a>
      </>
    );
  else if (event.isExternal && event.signUpLink)
    action = (
      <a className="button" href={event.signUpLink} target="_blank" rel="noopener noreferrer">
        Sign Up<span className="sr-only"> for {event.title} (opens in a new tab)</span>
      </a>
    );
  else
    action = (
      <a className="button" href={signUpHref(event)}>
        Sign Up<span className="sr-only"> for {event.title}</span>
      </a>
    );

  return (
    <li className="card event" data-event={event._id}>
      <h3>{event.title}</h3>
      <p className="meta">
        {localTimeWithZone(event.startsAt, zone)} · {event.location}
        {priceWords(event) && ` · ${priceWords(event)}`}
      </p>
      <p className="card-actions">
        {action}
        <a className="button button-quiet" href="/about?section=classDescriptions">
          Class descriptions
        </a>
      </p>
    </li>
  );
}

/**
 * /calendar: the month grid and the chosen day's classes (SPEC.md sections 2, 4, 9). Days are
 * hers (classes are dated on her clocks): the first frame is the day of the clock the page was
 * drawn with, so it hydrates to the server's text in any zone; then today is the live one.
 */
export default function Calendar({ clock }: { clock: PageClock }) {
  const zone = clock.zone;
  const today = useToday(clock);
  // Days and months answer a press once the island is alive (drawn by the server before that).
  const ready = useHydrated();
  const [cursor, setCursor] = useState(() => monthOfDay(today));
  const [selected, setSelected] = useState(today);
  // Classes by the grid range they were loaded for: each month's grid is fetched once, when shown.
  const [loaded, setLoaded] = useState<Record<string, EventView[]>>({});
  const [failed, setFailed] = useState(false);

  // A page drawn on another day (made ahead, or left open past midnight): what the visitor has
  // not chosen yet follows the new today.
  const shownToday = useRef(today);
  useEffect(() => {
    const before = shownToday.current;
    if (before === today) return;
    shownToday.current = today;
    setSelected((s) => (s === before ? today : s));
    setCursor((c) => {
      const was = monthOfDay(before);
      return c.year === was.year && c.month === was.month ? monthOfDay(today) : c;
    });
  }, [today]);

  const grid = monthGrid(cursor.year, cursor.month);
  const range = `from=${grid[0]!}&to=${grid[grid.length - 1]!}`;
  const events = loaded[range] ?? null;

  useEffect(() => {
    if (loaded[range]) return;
    let current = true;
    request<EventView[]>('GET', `/api/events?${range}`)
      .then((r) => {
        if (!r.ok || !Array.isArray(r.data)) throw new Error();
        const list = r.data;
        setLoaded((m) => ({ ...m, [range]: list }));
        setFailed(false);
      })
      .catch(() => current && setFailed(true));
    return () => {
      current = false;
    };
  }, [range, loaded]);

  // Every class loaded so far, by day (grids overlap at their edges: each class once).
  const byDate = useMemo(() => {
    const seen = new Set<string>();
    const map = new Map<string, EventView[]>();
    for (const e of Object.values(loaded).flat()) {
      if (seen.has(e._id)) continue;
      seen.add(e._id);
      map.set(e.date, [...(map.get(e.date) ?? []), e]);
    }
    for (const list of map.values()) list.sort((a, b) => a.time.localeCompare(b.time));
    return map;
  }, [loaded]);

  const shownMonth = monthLabel(cursor.year, cursor.month);
  const move = (delta: number) => setCursor((c) => addMonths(c, delta));
  const dayEvents = byDate.get(selected) ?? [];
  const selectedLabel = dayLabel(selected);

  return (
    <div className="calendar">
      <MonthHead label={shownMonth} onMove={move} level={2} ready={ready} />
      <MonthGrid
        label={shownMonth}
        grid={grid}
        month={cursor.month}
        today={today}
        selected={selected}
        countOf={(day) => byDate.get(day)?.length ?? 0}
        noun={['class', 'classes']}
        onChoose={setSelected}
        ready={ready}
        markToday
      />
      <section className="calendar-day-list" aria-labelledby="day-heading">
        <h2 id="day-heading">{selectedLabel}</h2>
        {failed && <p role="alert">We couldn’t load the classes. Please refresh the page to try again.</p>}
        {!failed && events === null && <p role="status">Loading classes…</p>}
        {events !== null && dayEvents.length === 0 && <p>No classes on this day.</p>}
        <ul className="event-list">
          {dayEvents.map((e) => (
            <EventItem key={e._id} event={e} zone={zone} />
          ))}
        </ul>
      </section>
    </div>
  );
}
