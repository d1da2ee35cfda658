/** What `npm run backup` and `npm run restore` print: the file, its size, the tables and their rows. */
import type { TableCount } from './backups.repo.ts';
import { formatBytes } from '../../contract/backups.ts';

export function tablesReport(tables: readonly TableCount[]): string {
  const width = Math.max(5, ...tables.map((t) => t.table.length));
  const total = tables.reduce((sum, t) => sum + t.rows, 0);
  const lines = tables.map((t) => `    ${t.table.padEnd(width)}  ${t.rows.toLocaleString('en-US').padStart(9)}`);
  return [`    ${'table'.padEnd(width)}  ${'rows'.padStart(9)}`, ...lines, `    ${tables.length} tables, ${total.toLocaleString('en-US')} rows`].join('\n');
}

export const sizeAndTime = (bytes: number, ms: number): string => `${formatBytes(bytes)}, ${(ms / 1000).toFixed(1)} s`;
