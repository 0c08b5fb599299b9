import { Prisma } from "@/lib/generated/prisma/client";
import { prisma } from "@/lib/db";
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
  const rows = await prisma.$queryRaw<Array<{ outbox: boolean; runs: boolean }>>`
    SELECT
      EXISTS (SELECT 1 FROM outbox_events WHERE "dispatchedAt" IS NULL) AS outbox,
      (${runs} AND EXISTS (
        SELECT 1 FROM job_runs
        WHERE (status = 'queued' AND "runAt" <= ${now}) OR (status = 'running' AND "leaseUntil" < ${now})
      )) AS runs`;
  return rows[0] ?? { outbox: false, runs: false };
}

/**
 * Turns undispatched outbox rows into queued runs of every function they trigger and marks them
 * dispatched, atomically. The (functionId, eventId) key makes a repeated dispatch harmless.
 */
export async function dispatchOutbox(functions: readonly TJobFunction[], limit = 200): Promise<number> {
  const routes = JSON.stringify(functions.flatMap((fn) => fn.events.map((event) => ({ event, fn: fn.id }))));
  return prisma.$executeRaw`
    WITH batch AS (
      SELECT id, name, data, "createdAt" FROM outbox_events
      WHERE "dispatchedAt" IS NULL
      ORDER BY "createdAt"
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ),
    routes AS (SELECT * FROM jsonb_to_recordset(${routes}::jsonb) AS r(event text, fn text)),
    queued AS (
      INSERT INTO job_runs (id, "functionId", "eventId", event, steps, status, attempt, "runAt", "createdAt", "updatedAt")
      SELECT gen_random_uuid()::text, routes.fn, batch.id,
             jsonb_build_object('id', batch.id, 'name', batch.name, 'data', batch.data,
                                'ts', floor(extract(epoch FROM batch."createdAt") * 1000)::bigint),
             '{}'::jsonb, 'queued', 0, now(), now(), now()
      FROM batch JOIN routes ON routes.event = batch.name
      ON CONFLICT ("functionId", "eventId") DO NOTHING
    )
    UPDATE outbox_events SET "dispatchedAt" = now() WHERE id IN (SELECT id FROM batch)`;
}

/** Claims due runs, and runs whose worker's lease expired (crash recovery), for `leaseMs`. */
export async function claimRuns(limit: number, leaseMs: number): Promise<TClaimedRun[]> {
  if (limit <= 0) return [];
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + leaseMs);
  return prisma.$queryRaw<TClaimedRun[]>`
    UPDATE job_runs SET status = 'running', "leaseUntil" = ${leaseUntil}, "updatedAt" = ${now}
    WHERE id IN (
      SELECT id FROM job_runs
      WHERE (status = 'queued' AND "runAt" <= ${now}) OR (status = 'running' AND "leaseUntil" < ${now})
      ORDER BY "runAt"
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, "functionId", "eventId", event, steps, attempt, "leaseUntil"`;
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

function jsonValue(value: unknown): Prisma.InputJsonValue | typeof Prisma.JsonNull {
  return value === null || value === undefined ? Prisma.JsonNull : (value as Prisma.InputJsonValue);
}

/**
 * Writes the run's new state if this worker still holds the lease (`leaseUntil` is the fencing
 * token). Returns the new lease, or null when the lease was lost and the worker must drop the run.
 */
export async function updateRun(
  id: string,
  lease: Date,
  update: TRunUpdate,
  leaseMs: number,
): Promise<Date | null> {
  const now = new Date();
  const nextLease = update.kind === "progress" ? new Date(now.getTime() + leaseMs) : null;
  const common = { steps: update.steps as Prisma.InputJsonValue, leaseUntil: nextLease, updatedAt: now };
  const data: Prisma.JobRunUpdateManyMutationInput =
    update.kind === "progress"
      ? { ...common, attempt: update.attempt }
      : update.kind === "wait"
        ? {
            ...common,
            status: "queued",
            attempt: update.attempt,
            runAt: update.runAt,
            lastError: update.lastError ?? null,
          }
        : update.kind === "completed"
          ? { ...common, status: "completed", output: jsonValue(update.output), lastError: null }
          : { ...common, status: "failed", attempt: update.attempt, lastError: update.error.slice(0, 4000) };
  const res = await prisma.jobRun.updateMany({ where: { id, status: "running", leaseUntil: lease }, data });
  if (res.count === 0) return null;
  return nextLease ?? lease;
}

/** Extends the lease of a run still being worked on; null when it was lost. */
export async function renewLease(id: string, lease: Date, leaseMs: number): Promise<Date | null> {
  const next = new Date(Date.now() + leaseMs);
  const res = await prisma.jobRun.updateMany({
    where: { id, status: "running", leaseUntil: lease },
    data: { leaseUntil: next },
  });
  return res.count === 0 ? null : next;
}

/** Completed runs are only history; failed ones stay for inspection. */
export async function pruneCompletedRuns(olderThan: Date): Promise<number> {
  const res = await prisma.jobRun.deleteMany({
    where: { status: "completed", updatedAt: { lt: olderThan } },
  });
  return res.count;
}
