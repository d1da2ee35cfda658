/**
 * The duplicates budget (issue 31): the workplace's `duplicates` command, run over api/, site/ and
 * tests/ together (a pair across two folders counts), must find no more pairs of repeated code
 * than BUDGET, the count left after issue 31's clean-up. A change that writes a block again fails
 * `npm test` here and is shown the pairs; a change that removes pairs should lower BUDGET with it,
 * so the number only goes down.
 *
 * The command is a tool of this machine, not a package (its README: call it, do not copy it into
 * a repo). Where it is not installed the stage says so and passes: nothing else in the suite
 * depends on it. `node scripts/check-duplicates.ts` runs it alone;
 * tests/unit/system/duplicates-budget.test.ts holds the reading of its answer.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The most pairs api/, site/ and tests/ may hold (fewer than half of the 301 issue 31 found). */
export const BUDGET = 145;

/** The folders read together. */
export const SCOPE = ['api', 'site', 'tests'] as const;

export type Verdict = { ok: true; pairs: number; said: string } | { ok: false; pairs: number | null; said: string };

/** What the command's answer means against `budget`: its first line counts the pairs. */
export function readAnswer(answer: string, budget: number): Verdict {
  const first = answer.split('\n')[0]?.trim() ?? '';
  const counted = /^(\d+) pairs? of places/.exec(first);
  const pairs = counted ? Number(counted[1]) : /^no duplicates/.test(first) ? 0 : null;
  if (pairs === null) return { ok: false, pairs, said: `duplicates gave no count: ${first || '(nothing)'}` };
  const incomplete = answer.split('\n').find((l) => l.startsWith('incomplete:'));
  if (pairs > budget) {
    return {
      ok: false,
      pairs,
      said: `${pairs} pairs of repeated code, over the budget of ${budget}: write the new block once and share it (the pairs are listed above)`,
    };
  }
  const lower = pairs < budget ? `; lower BUDGET in scripts/check-duplicates.ts to ${pairs}` : '';
  return { ok: true, pairs, said: `${pairs} pairs of repeated code, within the budget of ${budget}${lower}${incomplete ? ` (${incomplete})` : ''}` };
}

/** The tracked and new (not ignored) files of SCOPE, as they are on disk, copied into a temp folder. */
function copyScope(root: string): string {
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...SCOPE], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  const copy = mkdtempSync(path.join(tmpdir(), 'duplicates-'));
  for (const file of listed.stdout.split('\n').filter(Boolean)) {
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    try {
      cpSync(path.join(root, file), path.join(copy, file));
    } catch {
      // listed but deleted in the working tree: not there, not counted
    }
  }
  return copy;
}

/** Runs the command over `root`'s SCOPE; null when the command is not on this machine. */
export function checkDuplicates(root: string, budget = BUDGET): (Verdict & { listing: string }) | null {
  if (spawnSync('duplicates', ['--most', '1'], { cwd: tmpdir(), encoding: 'utf8' }).error) return null;
  const copy = copyScope(root);
  try {
    const run = spawnSync('duplicates', ['--repo', copy, '--most', '200', '--seconds', '300'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    return { ...readAnswer(run.stdout ?? '', budget), listing: run.stdout ?? '' };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const verdict = checkDuplicates(path.resolve(import.meta.dirname, '..'));
  if (!verdict) {
    console.log('[duplicates] the duplicates command is not on this machine: the budget is not checked here');
  } else {
    if (!verdict.ok) console.log(verdict.listing);
    console.log(`[duplicates] ${verdict.said}`);
    process.exit(verdict.ok ? 0 : 1);
  }
}
