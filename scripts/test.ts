/**
 * `npm test`: types and lint side by side (each is one process on one core, and two cores are
 * here), then Vitest, then Playwright, stopping at the first that fails, and how long each took
 * (issue 31: CI says how long; decision 0063 says where it goes). Each stage is its own npm
 * script, runnable alone.
 */
import { spawn, spawnSync } from 'node:child_process';

const taken: string[] = [];
const seconds = (since: number) => `${Math.round((performance.now() - since) / 1000)} s`;
const all = performance.now();

function finish(stage: string, start: number, status: number | null) {
  taken.push(`${stage} ${seconds(start)}${status === 0 ? '' : ' (failed)'}`);
  console.log(`[test] ${stage}: ${status === 0 ? 'passed' : 'FAILED'} in ${seconds(start)}`);
  if (status !== 0) {
    console.log(`[test] stages: ${taken.join(', ')}; stopped after ${seconds(all)}`);
    process.exit(status ?? 1);
  }
}

/** A stage run beside another: its output kept and printed whole when it ends, so the two never interleave. */
function alongside(stage: string): Promise<() => void> {
  const start = performance.now();
  console.log(`\n[test] ${stage}… (alongside)`);
  const child = spawn('npm', ['run', stage], { stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => out.push(b));
  child.stderr.on('data', (b: Buffer) => out.push(b));
  return new Promise((resolve) =>
    child.on('close', (status) =>
      resolve(() => {
        process.stdout.write(Buffer.concat(out));
        finish(stage, start, status);
      }),
    ),
  );
}

function inTurn(stage: string) {
  const start = performance.now();
  console.log(`\n[test] ${stage}…`);
  finish(stage, start, spawnSync('npm', ['run', stage], { stdio: 'inherit' }).status);
}

for (const report of await Promise.all([alongside('check'), alongside('lint')])) report();
inTurn('test:unit');
inTurn('test:e2e');
console.log(`[test] stages: ${taken.join(', ')}; all passed in ${seconds(all)}`);
