import { jobsPool } from "@/lib/db";
import { WEBHOOK_RETRY_EVENT } from "@/lib/webhooks/emit";

/** Sweeps in a row, without the delivery moving on in between, after which it is marked failed. */
export const MAX_SWEEPS = 3;
export const SWEPT_OUT_ERROR = `Stopped after ${MAX_SWEEPS} failed background runs; redeliver it to try again`;
// pg_try_advisory_xact_lock key of the sweep: one sweep at a time across processes and machines.
const SWEEP_LOCK = 7_421_190_301;

export type TSweepResult = { requested: number; failed: number };

/**
 * The recovery pass for webhook deliveries whose background run ended `failed` (its attempts used
 * up: database unreachable, a thrown bug), which would otherwise stay pending for ever. One
 * statement: the pending deliveries due more than `graceMs` ago (and not swept within it) that no
 * live work holds (an undispatched outbox event, a queued or running job run, batched `events`
 * included) get the outbox event `webhook/delivery.retry` at their next position in the schedule
 * (`n` = attempts + 1, due now), so they continue where they stopped (docs/decisions.md §7: no attempt is
 * added, the total span stays bounded). A delivery swept `MAX_SWEEPS` times in a row without an
 * attempt recorded or a redelivery in between is marked failed instead (an admin can redeliver it).
 *
 * Only one sweep runs at a time (a transaction-scoped advisory lock; a driver that does not get it
 * skips), and a delivery changed by another sweep since this statement's snapshot is re-checked
 * against its `sweptAt` before it is taken (`FOR UPDATE`), so it is requested once.
 */
export async function sweepStuckDeliveries({
  graceMs,
  limit = 1000,
}: {
  graceMs: number;
  limit?: number;
}): Promise<TSweepResult> {
  const { rows } = await jobsPool().query<{ status: string; n: number }>(
    `
    WITH lock AS (SELECT pg_try_advisory_xact_lock($1::bigint) AS held),
    cutoff AS (SELECT now() - make_interval(secs => $2::float8 / 1000) AS at),
    live AS (
      SELECT e -> 'data' ->> 'deliveryId' AS id
      FROM job_runs j
      CROSS JOIN LATERAL jsonb_array_elements(
        CASE WHEN jsonb_typeof(j.events) = 'array' THEN j.events ELSE jsonb_build_array(j.event) END) e
      WHERE j.status IN ('queued', 'running')
      UNION ALL
      SELECT data ->> 'deliveryId' FROM outbox_events WHERE "dispatchedAt" IS NULL
    ),
    stuck AS (
      -- progress since the last sweep (an attempt recorded, a redelivery) moves updatedAt past sweptAt
      SELECT d.id, CASE WHEN d."sweptAt" IS NOT NULL AND d."updatedAt" <= d."sweptAt"
                        THEN d.sweeps + 1 ELSE 1 END AS sweeps
      FROM webhook_deliveries d
      WHERE (SELECT held FROM lock)
        AND d.status = 'pending'
        AND COALESCE(d."nextAttemptAt", d."createdAt") < (SELECT at FROM cutoff)
        AND (d."sweptAt" IS NULL OR d."sweptAt" < (SELECT at FROM cutoff))
        AND NOT EXISTS (SELECT 1 FROM live WHERE live.id = d.id)
      ORDER BY COALESCE(d."nextAttemptAt", d."createdAt")
      LIMIT $3::int
      FOR UPDATE OF d SKIP LOCKED
    ),
    swept AS (
      UPDATE webhook_deliveries d SET
        sweeps = c.sweeps,
        "sweptAt" = now(),
        "updatedAt" = now(),
        status = CASE WHEN c.sweeps > $4::int THEN 'failed' ELSE d.status END,
        "nextAttemptAt" = CASE WHEN c.sweeps > $4::int THEN NULL ELSE d."nextAttemptAt" END,
        "lastError" = CASE WHEN c.sweeps > $4::int THEN $6 ELSE d."lastError" END
      FROM stuck c
      WHERE d.id = c.id
      RETURNING d.id, d."clientId", d.status, d.attempts
    ),
    requested AS (
      INSERT INTO outbox_events (id, "clientId", name, data)
      SELECT gen_random_uuid()::text, s."clientId", $5, jsonb_build_object('deliveryId', s.id, 'n', s.attempts + 1)
      FROM swept s WHERE s.status = 'pending'
      RETURNING 1
    )
    SELECT 'requested' AS status, (SELECT count(*)::int FROM requested) AS n
    UNION ALL
    SELECT 'failed', (SELECT count(*)::int FROM swept WHERE status = 'failed')`,
    [SWEEP_LOCK, graceMs, limit, MAX_SWEEPS, WEBHOOK_RETRY_EVENT, SWEPT_OUT_ERROR],
  );
  const count = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
  return { requested: count("requested"), failed: count("failed") };
}
