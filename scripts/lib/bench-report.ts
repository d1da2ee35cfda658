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

/** A report that has no goal to miss (the newsletter and outbox figures): its lines printed, then written under a title. */
export function writeBenchLines(name: string, title: string, lines: readonly string[]): void {
  console.log(lines.join('\n'));
  writeBenchReport(name, [`# ${title}`, '', ...lines, ''].join('\n'), []);
}

/** Bytes as kilobytes with one decimal, as every report writes them. */
export const kb = (n: number) => (n / 1024).toFixed(1);
