/** What the packages' tests (issue 32) make: free slots ahead, and the seeded packages by name. */
import type { TestServer } from './server.ts';
import { zonedInstant, zonedNow } from '../../api/lib/time.ts';
import type { PackageView } from '../../contract/packages.ts';

export function packageFixtures(server: TestServer) {
  // Slots asked for at the same distance follow each other an hour and a minute apart: a booked
  // one takes her time (issue 35), and a late one (a few hours ahead) stays within her notice period.
  const taken = new Map<number, number>();
  return {
    /** A free slot `hoursAhead` from now (rounded to her clock), clear of the others made here. */
    async addSlot(hoursAhead = 24 * 5) {
      const n = (taken.get(hoursAhead) ?? 0) + 1;
      taken.set(hoursAhead, n);
      const at = new Date(server.services.clock.now().getTime() + hoursAhead * 3_600_000 + n * 61 * 60_000);
      const wall = zonedNow(server.env.SITE_TIMEZONE, at);
      return server.services.db
        .insertInto('slots')
        .values({ date: wall.date, time: wall.time, startsAt: zonedInstant(wall.date, wall.time, server.env.SITE_TIMEZONE) })
        .returning(['id'])
        .executeTakeFirstOrThrow();
    },
    /** A package clients are offered, by its name. */
    async packageNamed(name: string): Promise<PackageView> {
      const list = (await (await server.api('/api/packages')).json()) as PackageView[];
      return list.find((p) => p.name === name)!;
    },
  };
}
