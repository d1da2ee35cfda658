/**
 * The one clock of the server (DESIGN.md "Time, balances, her calendar"): every date or time a
 * person reads (pages, islands' first frame, admin lists, mails, feeds, CSVs) is computed from
 * `clock.now()` in SITE_TIMEZONE, never from a `new Date()` of its own, so a test can set the
 * hour: API tests pass a fixed clock as a service override, a server started with CLOCK_START
 * (tests only; production refuses it) runs from that instant on.
 *
 * Expiry of tokens and sessions, retry timers and log stamps keep the machine's clock: nobody
 * reads them as a date, and PostgreSQL's now() decides several of them beside them.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that shows `start` when made and runs on at the machine's pace from there. */
export function clockFrom(start: Date, machine: () => number = Date.now): Clock {
  const offset = start.getTime() - machine();
  return { now: () => new Date(machine() + offset) };
}

/** A clock that stands still at `at` (unit and API tests), moved only by `set`. */
export function fixedClock(at: Date | string): Clock & { set(at: Date | string): void } {
  let instant = new Date(at);
  return {
    now: () => new Date(instant),
    set: (next) => {
      instant = new Date(next);
    },
  };
}

/** The server's clock for its environment: the machine's, or CLOCK_START's outside production. */
export const clockOf = (env: { CLOCK_START?: string }): Clock => (env.CLOCK_START ? clockFrom(new Date(env.CLOCK_START)) : systemClock);
