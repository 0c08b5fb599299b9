// A screening reads, evaluates in memory, then writes in one statement guarded by what it read. The
// guard, the retry that follows a refused write, and the write's run (with the job drivers' wake-up after
// its commit) are written here once.
import type { Pool } from "pg";
import { wakeJobDrivers } from "@/lib/jobs/wake";
import { prepared, type Params } from "@/lib/screening/sql/statements";

const ATTEMPTS = 5;

/**
 * The last SELECT of a guarded write: 1 when each CTE in `written` returned at least one row, else a
 * division by zero (22012), which aborts the statement as a whole: none of its CTEs writes anything.
 */
export function abortUnlessWritten(written: readonly string[]): string {
  return `SELECT 1${written.map((name) => ` / (SELECT count(*)::int FROM ${name})`).join("")} AS "ok"`;
}

/** The write was refused by abortUnlessWritten (nothing written). */
export function isAbortedByGuard(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === "22012";
}

/**
 * The write can start again from the read: a concurrent first write of the same id (unique
 * violation), a row changed since the read (abortUnlessWritten), a deadlock with a concurrent writer,
 * a serialization failure. In each case the statement wrote nothing.
 */
export function isWriteConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "23505" || code === "22012" || code === "40P01" || code === "40001";
}

/** Runs `work` (attempt 1, 2, …) again while its write conflicts, at most five times in all. */
export async function retryOnConflict<T>(work: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(attempt);
    } catch (err) {
      if (attempt < ATTEMPTS && isWriteConflict(err)) continue;
      throw err;
    }
  }
}

/**
 * Runs a screening's write, one statement committed on its own (`named`: as a named statement, see
 * `prepared`), with the parameters `p`, and then, when it wrote outbox rows
 * (`p.wakesJobs`, set by webhookCtes), wakes the job drivers (lib/jobs/wake.ts): outside the transaction,
 * so that its commit never queues behind other commits for the notify lock. Never call it inside BEGIN …
 * COMMIT: a driver woken before the commit finds nothing and waits for its poll.
 */
export async function commitWrite(
  db: Pick<Pool, "query">,
  p: Params,
  text: string,
  { named = false }: { named?: boolean } = {},
): Promise<void> {
  if (named) await db.query(prepared(text, p.values));
  else await db.query(text, p.values);
  if (p.wakesJobs) wakeJobDrivers();
}
