/**
 * Runs once before all test projects: the header tests serve the built site, so build it when
 * its sources changed (a stamp check: a no-op when the build is current). SKIP_BUILD=1 skips
 * it for a focused run of server-side tests while someone else rebuilds the site.
 */
import { build, e2eOrigin, isBuildCurrent } from '../scripts/build.ts';
import { ensurePgliteCopy, ensurePostgresCopy } from './helpers/migrated-copies.ts';

export default async function setup(): Promise<void> {
  // For the end-to-end server's origin: one build serves the API tests and Playwright alike.
  if (process.env.SKIP_BUILD !== '1' && !isBuildCurrent(e2eOrigin())) build(e2eOrigin());
  // The migrated database each test server copies (tests/helpers/migrated-copies.ts): made once
  // here, not migrated again by some 250 test files. The workers learn the PostgreSQL copy's name
  // from the environment, which they inherit.
  await ensurePgliteCopy();
  if (process.env.TEST_DATABASE_URL) process.env.TEST_POSTGRES_COPY = await ensurePostgresCopy(process.env.TEST_DATABASE_URL);
}
