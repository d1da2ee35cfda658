/**
 * `npm test`: the four stages in order (types, lint, Vitest, Playwright), stopping at the first
 * that fails, and how long each took (issue 31: CI says how long; two cores run it in about
 * twenty-five minutes). Each stage is its own npm script, runnable alone.
 */
import { spawnSync } from 'node:child_process';

const STAGES = ['check', 'lint', 'test:unit', 'test:e2e'] as const;
const taken: string[] = [];
const seconds = (since: number) => `${Math.round((performance.now() - since) / 1000)} s`;
const all = performance.now();

for (const stage of STAGES) {
  const start = performance.now();
  console.log(`\n[test] ${stage}…`);
  const { status } = spawnSync('npm', ['run', stage], { stdio: 'inherit' });
  taken.push(`${stage} ${seconds(start)}${status === 0 ? '' : ' (failed)'}`);
  console.log(`[test] ${stage}: ${status === 0 ? 'passed' : 'FAILED'} in ${seconds(start)}`);
  if (status !== 0) {
    console.log(`[test] stages: ${taken.join(', ')}; stopped after ${seconds(all)}`);
    process.exit(status ?? 1);
  }
}
console.log(`[test] stages: ${taken.join(', ')}; all passed in ${seconds(all)}`);
