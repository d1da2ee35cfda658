/**
 * Runs once before all test projects: the header tests serve the built site, so build it when
 * its sources changed (a stamp check: a no-op when the build is current).
 */
import { build, isBuildCurrent } from '../scripts/build.ts';

export default function setup(): void {
  if (!isBuildCurrent()) build();
}
