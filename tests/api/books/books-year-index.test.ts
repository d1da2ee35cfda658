/**
 * Year and month filters an index serves (issue 36): the tax year's, the income's and the
 * finances' SQL ask for a range of the indexed column (created_at from her year's first instant
 * to the next year's; a text date from 'YYYY-01-01' to the next year's) where they compared
 * to_char(…) or substr(…), which no index serves; the session income reads slots by when they were
 * booked, cancellations by when they had been booked, packages by the day paid (migration 0038). Each query the repositories send is explained
 * by PostgreSQL with sequential scans made a last resort: the plan reads an index with the
 * column's range as its condition.
 * (The figures themselves, a year's edge in her zone included, are books-tax-year.test.ts's.)
 */
import { CompiledQuery, sql, type KyselyPlugin } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import type { DB } from '../../../db/client.ts';
import { mileMonths, salesTaxMonths, salesTaxQuarters, unpaidOfYear } from '../../../api/books/tax-year.repo.ts';
import { sessionIncome, sessionIncomeByMethod, shopIncome } from '../../../api/books/income.repo.ts';
import { bestSellers } from '../../../api/backoffice/finances.repo.ts';

const ZONE = 'America/Los_Angeles';

/** Whether a plan reads an index with a range of `column` as its condition (whichever index on it the planner picks). */
const rangeIndexed = (plan: string, column: string) => new RegExp(`Index Cond: [^"]*\\b${column} >= `).test(plan);

/** The plans of the queries `run` sends, each explained with sequential scans off (one text per query). */
async function plansOf(db: DB, run: (db: DB) => Promise<unknown>): Promise<string[]> {
  const sent: CompiledQuery[] = [];
  const spy: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      sent.push(db.getExecutor().compileQuery(node, queryId));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  await run(db.withPlugin(spy));
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const plans: string[] = [];
    for (const q of sent) plans.push(JSON.stringify((await trx.executeQuery(CompiledQuery.raw(`explain ${q.sql}`, [...q.parameters]))).rows));
    return plans;
  });
}

describe(`year filters on ${testDbKind()}`, () => {
  const server = useTestServer();

  it('the tax year reads orders, gigs and trips through their date indexes', async () => {
    const db = server.services.db;
    const [quarters] = await plansOf(db, (d) => salesTaxQuarters(d, ZONE, 2025));
    expect(rangeIndexed(quarters!, 'created_at'), quarters).toBe(true);
    const [miles] = await plansOf(db, (d) => mileMonths(d, 2025, '2025-12-31'));
    expect(miles).toMatch(/Index Scan[^"]* (on|using) gigs_date/);
    expect(miles).toMatch(/Index Scan[^"]* (on|using) trips_date/);
    expect(rangeIndexed(miles!, 'date'), miles).toBe(true);
    const [unpaid] = await plansOf(db, (d) => unpaidOfYear(d, 2025, '2025-12-31'));
    expect(rangeIndexed(unpaid!, 'date'), unpaid).toBe(true);
  });

  it('the session income reads slots, cancellations and packages through their date indexes, not every slot of her history', async () => {
    const db = server.services.db;
    for (const run of [(d: DB) => sessionIncome(d, ZONE, '2025-01', '2025-12'), (d: DB) => sessionIncomeByMethod(d, ZONE, '2025-01', '2025-12')]) {
      const [plan] = await plansOf(db, run);
      expect(rangeIndexed(plan!, 'booked_at'), plan).toBe(true);
      expect(plan).toMatch(/Index Cond: [^"]*COALESCE\(booked_at, created_at\) >= /);
      expect(rangeIndexed(plan!, 'paid_on'), plan).toBe(true);
    }
  });

  it('the income and the finances read orders by their index for a range of months', async () => {
    const db = server.services.db;
    for (const run of [
      (d: DB) => shopIncome(d, ZONE, '2025-01', '2025-12'),
      (d: DB) => salesTaxMonths(d, ZONE, '2025-01', '2025-12'),
      (d: DB) => bestSellers(d, ZONE, '2025-01', '2025-12'),
    ]) {
      const [plan] = await plansOf(db, run);
      expect(rangeIndexed(plan!, 'created_at'), plan).toBe(true);
    }
  });
});
