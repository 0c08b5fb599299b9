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
 * Only one sweep runs at a time: a transaction-scoped advisory lock, taken in a statement of its own
 * before the sweep's (a driver that does not get it skips). The sweep statement's snapshot is thus
 * taken after the previous sweep committed, so it sees that sweep's outbox rows as live work and its
 * `sweptAt`, whatever the grace. (Taken inside the sweep statement, the lock came after the
 * statement's snapshot: a sweep that started while another ran and got the lock once that one had
 * committed did not see its requests, and with no grace requested every delivery a second time.)
 */
export async function sweepStuckDeliveries({
  graceMs,
  limit = 1000,
}: {
  graceMs: number;
  limit?: number;
}): Promise<TSweepResult> {
  const client = await jobsPool().connect();
  try {
    await client.query("BEGIN");
    const lock = await client.query<{ held: boolean }>(
      "SELECT pg_try_advisory_xact_lock($1::bigint) AS held",
      [SWEEP_LOCK],
    );
    if (!lock.rows[0]?.held) {
      await client.query("ROLLBACK");
      client.release();
      return { requested: 0, failed: 0 };
    }
    const { rows } = await client.query<{ status: string; n: number }>(
      `
    WITH cutoff AS (SELECT now() - make_interval(secs => $1::float8 / 1000) AS at),
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
      WHERE d.status = 'pending'
        AND COALESCE(d."nextAttemptAt", d."createdAt") < (SELECT at FROM cutoff)
        AND (d."sweptAt" IS NULL OR d."sweptAt" < (SELECT at FROM cutoff))
        AND NOT EXISTS (SELECT 1 FROM live WHERE live.id = d.id)
      ORDER BY COALESCE(d."nextAttemptAt", d."createdAt")
      LIMIT $2::int
      FOR UPDATE OF d SKIP LOCKED
    ),
    swept AS (
      UPDATE webhook_deliveries d SET
        sweeps = c.sweeps,
        "sweptAt" = now(),
        "updatedAt" = now(),
        status = CASE WHEN c.sweeps > $3::int THEN 'failed' ELSE d.status END,
        "nextAttemptAt" = CASE WHEN c.sweeps > $3::int THEN NULL ELSE d."nextAttemptAt" END,
        "lastError" = CASE WHEN c.sweeps > $3::int THEN $5 ELSE d."lastError" END
      FROM stuck c
      WHERE d.id = c.id
      RETURNING d.id, d."clientId", d.status, d.attempts
    ),
    requested AS (
      INSERT INTO outbox_events (id, "clientId", name, data)
      SELECT gen_random_uuid()::text, s."clientId", $4, jsonb_build_object('deliveryId', s.id, 'n', s.attempts + 1)
      FROM swept s WHERE s.status = 'pending'
      RETURNING 1
    )
    SELECT 'requested' AS status, (SELECT count(*)::int FROM requested) AS n
    UNION ALL
    SELECT 'failed', (SELECT count(*)::int FROM swept WHERE status = 'failed')`,
      [graceMs, limit, MAX_SWEEPS, WEBHOOK_RETRY_EVENT, SWEPT_OUT_ERROR],
    );
    await client.query("COMMIT");
    client.release();
    const count = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
    return { requested: count("requested"), failed: count("failed") };
  } catch (err) {
    // a connection left in an unknown state (an open transaction) is not given back to the pool
    client.release(err instanceof Error ? err : true);
    throw err;
  }
}
