/**
 * Where the built site lives and what it was built for. The build (scripts/build.ts) writes a
 * stamp next to it: a fingerprint of its inputs and the origin (SITE_URL) baked into its
 * canonical links, og:url and sitemap. `npm start` rebuilds when either differs; a production
 * server refuses a build made for another origin rather than serve pages that point elsewhere.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The build folder: DIST_DIR (relative to the project, or absolute), else `dist/`. */
export function distDirOf(distDir: string | undefined = process.env.DIST_DIR): string {
  if (!distDir) return join(root, 'dist');
  return isAbsolute(distDir) ? distDir : join(root, distDir);
}

export interface BuildStamp {
  /** sha256 of the build's inputs (scripts/build.ts inputsFingerprint). */
  inputs: string;
  /** The origin the pages were built for, without a trailing slash. */
  siteUrl: string;
}

const stampPath = (distDir: string) => join(distDir, '.build-stamp.json');

export function readBuildStamp(distDir: string): BuildStamp | undefined {
  try {
    const stamp = JSON.parse(readFileSync(stampPath(distDir), 'utf8')) as Partial<BuildStamp>;
    return typeof stamp.inputs === 'string' && typeof stamp.siteUrl === 'string' ? { inputs: stamp.inputs, siteUrl: stamp.siteUrl } : undefined;
  } catch {
    return undefined;
  }
}

export function writeBuildStamp(distDir: string, stamp: BuildStamp): void {
  writeFileSync(stampPath(distDir), JSON.stringify(stamp));
}

/** An origin as the build and SITE_URL compare it: no trailing slash. */
export const originOf = (siteUrl: string) => siteUrl.replace(/\/+$/, '');

/**
 * Why a production server must not serve this build, or undefined when it may: the build was
 * made for another origin than SITE_URL (or its origin is unknown).
 */
export function buildOriginProblem(distDir: string, siteUrl: string): string | undefined {
  if (!existsSync(join(distDir, 'client/index.html'))) return undefined;
  const stamp = readBuildStamp(distDir);
  const want = originOf(siteUrl);
  if (!stamp) return `The site in ${distDir} has no build stamp, so the origin in its links is unknown: run \`npm run build\` with SITE_URL=${want}.`;
  if (originOf(stamp.siteUrl) !== want) {
    return `The site was built for ${stamp.siteUrl} but SITE_URL is ${want}: its canonical links, og:url and sitemap would point to the wrong site. Run \`npm run build\` with SITE_URL=${want} (npm start rebuilds by itself).`;
  }
  return undefined;
}
