import { jobsPool, prisma } from "@/lib/db";
import type { TJobFunction } from "@/lib/jobs/function-table";

// The durable queue of the in-process driver: outbox rows become job_runs rows (one per function
// triggered), which workers claim with a lease. Every statement here is a single SQL statement, so
// a crash at any point leaves a consistent queue.

export type TStepState = { type: "data"; data: unknown } | { type: "error"; error: unknown };

export type TClaimedRun = {
  id: string;
  functionId: string;
  eventId: string;
  event: Record<string, unknown>;
  steps: Record<string, TStepState>;
  attempt: number;
  leaseUntil: Date;
};

/** One indexed query answering whether there is anything to do; all the idle poll costs. */
export async function pendingWork(
  now: Date,
  { runs }: { runs: boolean },
): Promise<{ outbox: boolean; runs: boolean }> {
  const { rows } = await jobsPool().query<{ outbox: boolean; runs: boolean }>(
    `SELECT
      EXISTS (SELECT 1 FROM outbox_events WHERE "dispatchedAt" IS NULL) AS outbox,
      ($1::boolean AND EXISTS (
        SELECT 1 FROM job_runs
        WHERE (status = 'queued' AND "runAt" <= $2) OR (status = 'running' AND "leaseUntil" < $2)
      )) AS runs`,
    [runs, now],
  );
  return rows[0] ?? { outbox: false, runs: false };
}

/**
 * Turns undispatched outbox rows into queued runs of every function they trigger and marks them
 * dispatched, atomically. The (functionId, eventId) key makes a repeated dispatch harmless.
 */
export async function dispatchOutbox(functions: readonly TJobFunction[], limit = 200): Promise<number> {
  const routes = JSON.stringify(functions.flatMap((fn) => fn.events.map((event) => ({ event, fn: fn.id }))));
  const res = await jobsPool().query(
    `
    WITH batch AS (
      SELECT id, name, data, "createdAt" FROM outbox_events
      WHERE "dispatchedAt" IS NULL
      ORDER BY "createdAt"
      LIMIT $2
      FOR UPDATE SKIP LOCKED
    ),
    routes AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(event text, fn text)),
    queued AS (
      INSERT INTO job_runs (id, "functionId", "eventId", event, steps, status, attempt, "runAt", "createdAt", "updatedAt")
      SELECT gen_random_uuid()::text, routes.fn, batch.id,
             jsonb_build_object('id', batch.id, 'name', batch.name, 'data', batch.data,
                                'ts', floor(extract(epoch FROM batch."createdAt") * 1000)::bigint),
             '{}'::jsonb, 'queued', 0, now(), now(), now()
      FROM batch JOIN routes ON routes.event = batch.name
      ON CONFLICT ("functionId", "eventId") DO NOTHING
    )
    UPDATE outbox_events SET "dispatchedAt" = now() WHERE id IN (SELECT id FROM batch)`,
    [routes, limit],
  );
  return res.rowCount ?? 0;
}

/** Claims due runs, and runs whose worker's lease expired (crash recovery), for `leaseMs`. */
export async function claimRuns(limit: number, leaseMs: number): Promise<TClaimedRun[]> {
  if (limit <= 0) return [];
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const res = await jobsPool().query<TClaimedRun>(
    `
    UPDATE job_runs SET status = 'running', "leaseUntil" = $1, "updatedAt" = $2
    WHERE id IN (
      SELECT id FROM job_runs
      WHERE (status = 'queued' AND "runAt" <= $2) OR (status = 'running' AND "leaseUntil" < $2)
      ORDER BY "runAt"
      LIMIT $3
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, "functionId", "eventId", event, steps, attempt, "leaseUntil"`,
    [leaseUntil, now, limit],
  );
  return res.rows;
}

export type TRunUpdate =
  | { kind: "progress"; steps: Record<string, TStepState>; attempt: number }
  | {
      kind: "wait";
      steps: Record<string, TStepState>;
      attempt: number;
      runAt: Date;
      lastError?: string | null;
    }
  | { kind: "completed"; steps: Record<string, TStepState>; output: unknown }
  | { kind: "failed"; steps: Record<string, TStepState>; attempt: number; error: string };

/**
 * Writes the run's new state if this worker still holds the lease (`leaseUntil` is the fencing
 * token). Returns the new lease, or null when the lease was lost and the worker must drop the run.
 * Plain SQL on the pool: this runs several times per delivery, and Prisma's query building cost
 * more CPU than the statement.
 */
export async function updateRun(
  id: string,
  lease: Date,
  update: TRunUpdate,
  leaseMs: number,
): Promise<Date | null> {
  const now = new Date();
  const nextLease = update.kind === "progress" ? new Date(now.getTime() + leaseMs) : null;
  const status =
    update.kind === "progress"
      ? "running"
      : update.kind === "wait"
        ? "queued"
        : update.kind === "completed"
          ? "completed"
          : "failed";
  const attempt = update.kind === "completed" ? null : update.attempt;
  const runAt = update.kind === "wait" ? update.runAt : null;
  // progress keeps lastError; wait sets it (or clears it); completed clears it; failed sets it.
  const setError = update.kind !== "progress";
  const lastError =
    update.kind === "wait"
      ? (update.lastError ?? null)
      : update.kind === "failed"
        ? update.error.slice(0, 4000)
        : null;
  const output = update.kind === "completed" ? JSON.stringify(update.output ?? null) : null;
  const res = await jobsPool().query(
    `UPDATE job_runs SET
       steps = $3::jsonb, "leaseUntil" = $4, "updatedAt" = $5, status = $6,
       attempt = COALESCE($7::int, attempt),
       "runAt" = COALESCE($8::timestamptz, "runAt"),
       "lastError" = CASE WHEN $9::boolean THEN $10::text ELSE "lastError" END,
       output = CASE WHEN $6 = 'completed' THEN $11::jsonb ELSE output END
     WHERE id = $1 AND status = 'running' AND "leaseUntil" = $2`,
    [
      id,
      lease,
      JSON.stringify(update.steps),
      nextLease,
      now,
      status,
      attempt,
      runAt,
      setError,
      lastError,
      output,
    ],
  );
  if (res.rowCount === 0) return null;
  return nextLease ?? lease;
}

/** Extends the lease of a run still being worked on; null when it was lost. */
export async function renewLease(id: string, lease: Date, leaseMs: number): Promise<Date | null> {
  const next = new Date(Date.now() + leaseMs);
  const res = await jobsPool().query(
    `UPDATE job_runs SET "leaseUntil" = $3 WHERE id = $1 AND status = 'running' AND "leaseUntil" = $2`,
    [id, lease, next],
  );
  return res.rowCount === 0 ? null : next;
}

/** Completed runs are only history; failed ones stay for inspection. */
export async function pruneCompletedRuns(olderThan: Date): Promise<number> {
  const res = await prisma.jobRun.deleteMany({
    where: { status: "completed", updatedAt: { lt: olderThan } },
  });
  return res.count;
}
