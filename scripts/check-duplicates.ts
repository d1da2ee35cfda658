/**
 * The duplicates budget (issues 31 and 49): the workplace's `duplicates` command, run over the
 * whole tree (api/, site/, tests/, db/, contract/, scripts/, realtime/ and the root's config files:
 * every file git tracks or would track, as it is on disk; a pair across two folders counts), must
 * find no more pairs of repeated code than BUDGET. Issue 31 checked api/, site/ and tests/ alone,
 * and the rest grew 48 pairs unseen; issue 49 brought the whole tree under 150 and checks all of it.
 * A change that writes a block again fails `npm test` here and is shown the pairs; a change that
 * removes pairs should lower BUDGET with it, so the number only goes down.
 *
 * The migrations' pairs count too though a shipped migration is never edited: they are a fixed
 * part of the count, paid for by sharing code elsewhere.
 *
 * The command is a tool of this machine, not a package (its README: call it, do not copy it into
 * a repo). Where it is not installed the stage says so and passes: nothing else in the suite
 * depends on it. `node scripts/check-duplicates.ts` runs it alone;
 * tests/unit/system/duplicates-budget.test.ts holds the reading of its answer.
 */
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The most pairs the whole tree may hold (issue 49: under 150; issue 31 found 301 in three folders). */
export const BUDGET = 149;

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

/**
 * Runs the command over the whole of `root`, a git checkout: the command itself reads the files git
 * tracks and the new ones it does not ignore, as they are in the working tree (node_modules, dist
 * and the like are ignored). Null when the command is not on this machine.
 */
export function checkDuplicates(root: string, budget = BUDGET): (Verdict & { listing: string }) | null {
  if (spawnSync('duplicates', ['--most', '1'], { cwd: tmpdir(), encoding: 'utf8' }).error) return null;
  const run = spawnSync('duplicates', ['--repo', root, '--most', '200', '--seconds', '300'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  return { ...readAnswer(run.stdout ?? '', budget), listing: run.stdout ?? '' };
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
