import type pg from "pg";
import { jobsPool } from "@/lib/db";

/** How many months after the current one have their partitions made in advance. */
export const MONTHS_AHEAD = 3;

/**
 * Makes the month partitions of the partitioned tables from the current month to MONTHS_AHEAD later,
 * and those of the months that have rows in a default partition (moving the rows in): migration
 * 20261127030000_transactions_partitioned, docs/operations.md "Partitions and retention". Idempotent,
 * one caller at a time (an advisory lock); answers the partitions made.
 */
export async function ensureMonthPartitions(
  pool: pg.Pool = jobsPool(),
  at: Date = new Date(),
): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT p AS "name" FROM "month_partitions_ensure"($1::int, $2::timestamptz) p`,
    [MONTHS_AHEAD, at],
  );
  return rows.map((r) => r.name);
}
