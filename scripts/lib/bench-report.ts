/**
 * The end every benchmark shares: its report written to docs/bench/<name>.md, and a goal it
 * missed said on stderr with exit code 1, after the report is written (scripts/bench.ts then
 * names the step that missed).
 */
import { mkdirSync, writeFileSync } from 'node:fs';

export function writeBenchReport(name: string, report: string, problems: readonly string[]): void {
  mkdirSync('docs/bench', { recursive: true });
  writeFileSync(`docs/bench/${name}.md`, report);
  console.log(`\nWrote docs/bench/${name}.md`);
  if (problems.length) {
    console.error(problems.join('\n'));
    process.exitCode = 1;
  }
}
