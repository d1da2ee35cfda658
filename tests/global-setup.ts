/**
 * Runs once before all test projects: the header tests serve the built site, so build it when
 * its sources changed (a stamp check: a no-op when the build is current). SKIP_BUILD=1 skips
 * it for a focused run of server-side tests while someone else rebuilds the site.
 */
import { build, e2eOrigin, isBuildCurrent } from '../scripts/build.ts';

export default function setup(): void {
  if (process.env.SKIP_BUILD === '1') return;
  // For the end-to-end server's origin: one build serves the API tests and Playwright alike.
  if (!isBuildCurrent(e2eOrigin())) build(e2eOrigin());
}
