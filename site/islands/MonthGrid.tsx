import { DAY_NAMES, dayLabel, dayNumber, monthOfDay } from '../lib/calendar';

/**
 * A month as six weeks of day buttons, shared by the class calendar and the booking page: each
 * day says how many things it holds (a dot, and the count in its accessible name); past days
 * are disabled; days of the neighbouring months are dimmed.
 */
export function MonthGrid(props: {
  label: string;
  /** 42 days (YYYY-MM-DD) from the monthGrid() of lib/calendar. */
  grid: string[];
  /** The month shown (0–11): other days are 'outside'. */
  month: number;
  today: string;
  selected: string | null;
  /** How many classes or free slots the day holds. */
  countOf: (day: string) => number;
  /** What is counted, singular and plural: 'class'/'classes'. */
  noun: [string, string];
  onChoose: (day: string) => void;
  /** Ring today's date (the class calendar does). */
  markToday?: boolean;
  /** False until the island is alive: a press on a day drawn by the server would choose nothing (useHydrated). */
  ready?: boolean;
}) {
  const { grid, today, selected } = props;
  return (
    <div className="calendar-grid" role="grid" aria-label={props.label}>
      <div role="row" className="calendar-row">
        {DAY_NAMES.map((d) => (
          <div role="columnheader" key={d} className="calendar-dow">
            {d}
          </div>
        ))}
      </div>
      {Array.from({ length: 6 }, (_, w) => (
        <div role="row" className="calendar-row" key={w}>
          {grid.slice(w * 7, w * 7 + 7).map((key) => {
            const count = props.countOf(key);
            const classes = [
              'calendar-day',
              monthOfDay(key).month !== props.month && 'outside',
              count > 0 && 'has-events',
              key === selected && 'selected',
              props.markToday && key === today && 'today',
            ];
            return (
              <div role="gridcell" key={key} aria-selected={key === selected}>
                <button
                  type="button"
                  className={classes.filter(Boolean).join(' ')}
                  disabled={props.ready === false || key < today}
                  data-date={key}
                  onClick={() => props.onChoose(key)}
                  aria-label={`${dayLabel(key)}${count ? `, ${count} ${props.noun[count > 1 ? 1 : 0]}` : ''}`}
                >
                  <span>{dayNumber(key)}</span>
                  {/* Always in the layout, seen only when the day holds something: the classes arriving after the
                      first paint then move nothing (no layout shift, issue 25). */}
                  <span className={count > 0 ? 'calendar-dot' : 'calendar-dot calendar-dot-empty'} aria-hidden="true" />
                </button>
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}

/**
 * The month's heading between its Prev and Next buttons, above a MonthGrid. `level`: the class
 * calendar's is an h2, the booking pages' an h3. `ready` false keeps the buttons disabled until
 * the island is alive (useHydrated).
 */
export function MonthHead(props: { label: string; onMove: (delta: number) => void; level?: 2 | 3; ready?: boolean }) {
  const Heading = props.level === 2 ? 'h2' : 'h3';
  return (
    <div className="calendar-head">
      <button
        type="button"
        className="button button-quiet button-small"
        disabled={props.ready === false}
        onClick={() => props.onMove(-1)}
        aria-label="Previous month"
      >
        ‹ Prev
      </button>
      <Heading aria-live="polite">{props.label}</Heading>
      <button
        type="button"
        className="button button-quiet button-small"
        disabled={props.ready === false}
        onClick={() => props.onMove(1)}
        aria-label="Next month"
      >
        Next ›
      </button>
    </div>
  );
}
