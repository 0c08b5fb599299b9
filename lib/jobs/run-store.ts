import { jobsPool, prisma } from "@/lib/db";
import { batcher } from "@/lib/db-batch";
import { JOB_PROTOCOL, type TJobFunction } from "@/lib/jobs/function-table";

// The durable queue of the in-process driver: outbox rows become job_runs rows (one per function
// triggered), which workers claim with a lease. Every statement here is a single SQL statement, so
// a crash at any point leaves a consistent queue.

export type TStepState = { type: "data"; data: unknown } | { type: "error"; error: unknown };

export type TClaimedRun = {
  id: string;
  functionId: string;
  eventId: string;
  event: Record<string, unknown>;
  /** Every event of a batched run, in order (`event` is the first); null for a run of one event. */
  events: Record<string, unknown>[] | null;
  steps: Record<string, TStepState>;
  attempt: number;
  leaseUntil: Date;
};

/** One indexed query answering whether the outbox holds anything to relay (relay mode's idle poll). */
export async function outboxPending(): Promise<boolean> {
  const { rows } = await jobsPool().query<{ outbox: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM outbox_events WHERE "dispatchedAt" IS NULL) AS outbox`,
  );
  return rows[0]?.outbox ?? false;
}

/** Which function (and version) each event triggers, and its batch size (0: one run per event). */
function routesOf(functions: readonly TJobFunction[]): string {
  return JSON.stringify(
    functions.flatMap((fn) =>
      fn.events.map((event) => ({ event, fn: fn.id, version: fn.version, size: fn.batchSize ?? 0 })),
    ),
  );
}

/** The events a driver dispatches: those its functions take, and those it knows trigger none. */
function knownEvents(functions: readonly TJobFunction[], withoutFunctions: readonly string[]): string[] {
  return [...new Set([...functions.flatMap((fn) => fn.events), ...withoutFunctions])];
}

/**
 * One pass of the embedded driver, in one statement (all the idle poll costs too):
 * - dispatch: up to `limit` undispatched outbox rows of the events this driver knows (`functions`'
 *   triggers and `withoutFunctions`) become runs of every function they trigger and are marked
 *   dispatched (with `JOB_PROTOCOL`), atomically: one run per event, or for a function with
 *   `batchSize` one run per up to that many of its events (in commit order; the run's `eventId` is its
 *   first event's). The (functionId, eventId) key makes a repeated dispatch harmless. An event of a
 *   name it does not know stays undispatched for a build that knows it (rolling upgrades: a newer
 *   build's new event is not dropped by an older one, nor the reverse).
 * - claim: up to `free` runs of the function versions it serves (`functions`' (id, version): a run
 *   started by another version is left to a build that serves it) for `leaseMs`,
 *   `FOR UPDATE SKIP LOCKED`: first the runs just created
 *   (inserted leased, the others queued), then due runs and, with `recoverExpired`, runs whose
 *   worker's lease expired (crash recovery), so processes and machines share the work. The expired
 *   leases are a separate scan that only runs with `recoverExpired` (a one-time filter): the
 *   "running" entries of the index include the old version of every run that finished since the
 *   last VACUUM, and reading them all on each of the ~20 passes a second under load cost more
 *   PostgreSQL CPU than the deliveries' own statements (bench database: 1,445 such entries, 302
 *   buffers per pass; 5 without that scan). The driver looks for expired leases about once a second.
 */
export async function dispatchAndClaim(
  functions: readonly TJobFunction[],
  {
    free,
    leaseMs,
    limit = 500,
    recoverExpired = true,
    withoutFunctions = [],
  }: {
    free: number;
    leaseMs: number;
    limit?: number;
    recoverExpired?: boolean;
    /** Events this build writes that trigger none of its functions: dispatched without a run. */
    withoutFunctions?: readonly string[];
  },
): Promise<{ dispatched: number; runs: TClaimedRun[] }> {
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const res = await jobsPool().query<TClaimedRun & { dispatched: number | null }>({
    name: "job-driver-pass",
    text: `
    WITH batch AS (
      SELECT id, name, data, "createdAt" FROM outbox_events
      WHERE "dispatchedAt" IS NULL AND name = ANY($7::text[])
      ORDER BY "createdAt"
      LIMIT $2::int
      FOR UPDATE SKIP LOCKED
    ),
    routes AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(event text, fn text, version int, size int)),
    matched AS (
      SELECT routes.fn, routes.version, routes.size, batch.id, batch."createdAt",
             jsonb_build_object('id', batch.id, 'name', batch.name, 'data', batch.data,
                                'ts', floor(extract(epoch FROM batch."createdAt") * 1000)::bigint) AS event,
             row_number() OVER (PARTITION BY routes.fn ORDER BY batch."createdAt", batch.id) - 1 AS n
      FROM batch JOIN routes ON routes.event = batch.name
    ),
    runs AS (
      SELECT fn, max(version) AS version, (array_agg(id ORDER BY n))[1] AS "eventId", (array_agg(event ORDER BY n))[1] AS event,
             CASE WHEN max(size) > 0 THEN jsonb_agg(event ORDER BY n) END AS events,
             row_number() OVER (ORDER BY min("createdAt")) AS k
      FROM matched
      GROUP BY fn, CASE WHEN size > 0 THEN n / size ELSE n END
    ),
    inserted AS (
      INSERT INTO job_runs (id, "functionId", "fnVersion", "eventId", event, events, steps, status, attempt,
                            "runAt", "leaseUntil", "createdAt", "updatedAt")
      SELECT gen_random_uuid()::text, fn, version, "eventId", event, events, '{}'::jsonb,
             CASE WHEN k <= $3::int THEN 'running' ELSE 'queued' END, 0, now(),
             CASE WHEN k <= $3::int THEN $4::timestamptz END, now(), now()
      FROM runs
      ON CONFLICT ("functionId", "eventId") DO NOTHING
      RETURNING id, "functionId", "eventId", event, events, steps, attempt, "leaseUntil", status
    ),
    -- by id through the primary key (= ANY): "IN (SELECT id FROM batch)" was planned as a hash join over every
    -- outbox row (the planner takes a CTE for 150 rows)
    dispatched AS (
      UPDATE outbox_events SET "dispatchedAt" = now(), "dispatchedBy" = $8::int
      WHERE id = ANY(ARRAY(SELECT id FROM batch)) RETURNING 1
    ),
    due AS (
      SELECT id, "runAt" FROM job_runs
      WHERE status = 'queued' AND "runAt" <= $5::timestamptz
        AND "functionId" || '@' || "fnVersion" = ANY($9::text[])
      ORDER BY "runAt"
      LIMIT greatest(0, $3::int - (SELECT count(*) FROM runs))
      FOR UPDATE SKIP LOCKED
    ),
    expired AS (
      SELECT id, "runAt" FROM job_runs
      WHERE $6::boolean AND status = 'running' AND "leaseUntil" < $5::timestamptz
        AND "functionId" || '@' || "fnVersion" = ANY($9::text[])
      ORDER BY "runAt"
      LIMIT greatest(0, $3::int - (SELECT count(*) FROM runs))
      FOR UPDATE SKIP LOCKED
    ),
    claimed AS (
      UPDATE job_runs SET status = 'running', "leaseUntil" = $4::timestamptz, "updatedAt" = $5::timestamptz
      WHERE id IN (
        SELECT id FROM (SELECT * FROM due UNION ALL SELECT * FROM expired) d
        ORDER BY "runAt"
        LIMIT greatest(0, $3::int - (SELECT count(*) FROM runs))
      )
      RETURNING id, "functionId", "eventId", event, events, steps, attempt, "leaseUntil"
    )
    SELECT id, "functionId", "eventId", event, events, steps, attempt, "leaseUntil", NULL::int AS dispatched
    FROM inserted WHERE status = 'running'
    UNION ALL
    SELECT id, "functionId", "eventId", event, events, steps, attempt, "leaseUntil", NULL FROM claimed
    UNION ALL
    SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, (SELECT count(*)::int FROM dispatched)`,
    values: [
      routesOf(functions),
      limit,
      free,
      leaseUntil,
      now,
      recoverExpired,
      knownEvents(functions, withoutFunctions),
      JOB_PROTOCOL,
      functions.map((fn) => `${fn.id}@${fn.version}`),
    ],
  });
  let dispatched = 0;
  const runs: TClaimedRun[] = [];
  for (const row of res.rows) {
    if (row.id === null) dispatched = row.dispatched ?? 0;
    else {
      const { dispatched: _, ...run } = row;
      runs.push(run);
    }
  }
  return { dispatched, runs };
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
 * more CPU than the statement. The updates of this process's runs go out together (`batcher`: one
 * statement for those that arrived while the previous one ran), each fenced by its own lease.
 */
export function updateRun(
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
  // progress keeps lastError; wait sets it (or clears it); completed clears it; failed sets it.
  const lastError =
    update.kind === "wait"
      ? (update.lastError ?? null)
      : update.kind === "failed"
        ? update.error.slice(0, 4000)
        : null;
  const row = {
    id,
    lease: lease.toISOString(),
    steps: update.steps,
    nextLease: nextLease?.toISOString() ?? null,
    now: now.toISOString(),
    status,
    attempt: update.kind === "completed" ? null : update.attempt,
    runAt: update.kind === "wait" ? update.runAt.toISOString() : null,
    setError: update.kind !== "progress",
    lastError,
    // wrapped, so that a null output is stored as JSON null, not SQL NULL
    output: update.kind === "completed" ? { value: update.output ?? null } : null,
  };
  return writeRunUpdate(row).then((stored) => (stored ? (nextLease ?? lease) : null));
}

type TRunUpdateRow = Record<string, unknown> & { id: string };

const writeRunUpdate = batcher<TRunUpdateRow, boolean>(
  async (rows) => {
    // named: planned once per connection (planning cost more than the update of a few runs). The runs are found
    // through the primary key (id = ANY): with "status = 'running'" as an index condition, the plan walked the
    // status index, whose running entries include every version of a run updated since the last VACUUM (158
    // buffers for one run under load); "IS TRUE" keeps that test a filter.
    const res = await jobsPool().query<{ id: string }>({
      name: "job-run-update",
      text: `UPDATE job_runs j SET
         steps = u.steps, "leaseUntil" = u."nextLease", "updatedAt" = u.now, status = u.status,
         attempt = COALESCE(u.attempt, j.attempt),
         "runAt" = COALESCE(u."runAt", j."runAt"),
         "lastError" = CASE WHEN u."setError" THEN u."lastError" ELSE j."lastError" END,
         output = CASE WHEN u.status = 'completed' THEN u.output -> 'value' ELSE j.output END
       FROM jsonb_to_recordset($1::jsonb) AS u(id text, lease timestamptz, steps jsonb, "nextLease" timestamptz,
         now timestamptz, status text, attempt int, "runAt" timestamptz, "setError" boolean, "lastError" text,
         output jsonb)
       WHERE j.id = ANY(ARRAY(SELECT r ->> 'id' FROM jsonb_array_elements($1::jsonb) r)) AND j.id = u.id
         AND j."leaseUntil" = u.lease AND (j.status = 'running') IS TRUE
       RETURNING j.id`,
      values: [JSON.stringify(rows)],
    });
    const stored = new Set(res.rows.map((r) => r.id));
    return rows.map((r) => stored.has(r.id));
  },
  { key: (row) => row.id },
);

/** Extends the lease of a run still being worked on; null when it was lost. */
export async function renewLease(id: string, lease: Date, leaseMs: number): Promise<Date | null> {
  const next = new Date(Date.now() + leaseMs);
  const res = await jobsPool().query(
    `UPDATE job_runs SET "leaseUntil" = $3 WHERE id = $1 AND status = 'running' AND "leaseUntil" = $2`,
    [id, lease, next],
  );
  return res.rowCount === 0 ? null : next;
}

/**
 * Gives a run back before it is finished (its process is shutting down): queued, due now, its
 * memoized steps kept, fenced by the lease like every write; the drivers are woken at commit so
 * another process claims it at once rather than when the lease would have expired.
 */
export async function releaseRun(id: string, lease: Date): Promise<boolean> {
  const res = await jobsPool().query(
    `WITH released AS (
       UPDATE job_runs SET status = 'queued', "leaseUntil" = NULL, "runAt" = now(), "updatedAt" = now()
       WHERE id = $1 AND status = 'running' AND "leaseUntil" = $2
       RETURNING id
     )
     SELECT pg_notify('job_work', '') FROM released`,
    [id, lease],
  );
  return res.rowCount === 1;
}

/** Completed runs are only history; failed ones stay for inspection. */
export async function pruneCompletedRuns(olderThan: Date): Promise<number> {
  const res = await prisma.jobRun.deleteMany({
    where: { status: "completed", updatedAt: { lt: olderThan } },
  });
  return res.count;
}
