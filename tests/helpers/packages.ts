/** What the packages' tests (issue 32) make: free slots ahead, and the seeded packages by name. */
import type { TestServer } from './server.ts';
import { zonedInstant, zonedNow } from '../../api/lib/time.ts';
import type { PackageView } from '../../contract/packages.ts';

export function packageFixtures(server: TestServer) {
  let minute = 0;
  return {
    /** A free slot `hoursAhead` from now (rounded to her clock), a minute apart from the others. */
    async addSlot(hoursAhead = 24 * 5) {
      const n = ++minute;
      const at = new Date(server.services.clock.now().getTime() + hoursAhead * 3_600_000 + n * 60_000);
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
