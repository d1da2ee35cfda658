import { useEffect, useState } from 'react';
import type { PageClock } from '../../contract/content.ts';
import { todayIn } from '../lib/calendar';

/**
 * Her today (YYYY-MM-DD in her zone): in the first frame the day of the clock the page was drawn
 * with (what the server wrote, so hydration matches in any visitor's zone), then the browser's
 * own instant, still on her clocks, looked at again each minute (a page left open past midnight).
 */
export function useToday(clock: PageClock): string {
  const [today, setToday] = useState(() => todayIn(clock.zone, new Date(clock.now)));
  useEffect(() => {
    const look = () => setToday(todayIn(clock.zone, new Date()));
    look();
    const timer = setInterval(look, 60_000);
    return () => clearInterval(timer);
  }, [clock.zone]);
  return today;
}
