import { observeDeliveryAttempt } from "@/lib/ops/metrics";
import { jobsPool } from "@/lib/db";
import { batcher } from "@/lib/db-batch";
import { WEBHOOK_RETRY_EVENT } from "@/lib/webhooks/emit";
import type { TDeliveryStatus } from "@/lib/webhooks/send-delivery-attempt";

export type TAttemptResult = {
  attempt: number;
  startedAt: number;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
  ok: boolean;
};

export type TRecordedDelivery = { status: TDeliveryStatus; attempts: number; nextAttemptAt: number | null };

type TAttemptToRecord = {
  deliveryId: string;
  outcome: TAttemptResult;
  /** When the next attempt is due; null: no retry left (or needed). */
  retryAt: number | null;
};

/**
 * Logs an attempt and moves the delivery on: delivered on success, pending with the next attempt
 * time while retries remain (`retryAt`), failed otherwise. Safe to run twice for one attempt, and
 * never moves a delivery back to an earlier attempt.
 *
 * One SQL statement (shared with the attempts recorded at the same moment) rather than an interactive transaction: background work must never hold a
 * transaction open on the embedded database, where a transaction on one connection disturbs the
 * statements of the others (the request handlers').
 */
export async function recordDeliveryAttempt(attempt: TAttemptToRecord): Promise<TRecordedDelivery> {
  const row = await recordOne(attemptRow(attempt, null));
  if (!row) throw new Error(`Delivery ${attempt.deliveryId} does not exist`);
  observeDeliveryAttempt(row);
  return recorded(row);
}

/**
 * The attempts made together (`deliver-webhooks`), in one statement. Each delivery left pending
 * gets, in that same statement, the outbox event `WEBHOOK_RETRY_EVENT` that continues it on the
 * retry schedule at `retryN` (the position of its next attempt there), so a retry is scheduled
 * exactly when its attempt is recorded, once however often this runs.
 */
export async function recordDeliveryAttempts({
  attempts,
  retryN,
}: {
  attempts: readonly TAttemptToRecord[];
  retryN: number;
}): Promise<Array<TRecordedDelivery & { deliveryId: string }>> {
  const rows = await writeAttempts(attempts.map((a) => attemptRow(a, retryN)));
  return attempts.map((a, i) => {
    const row = rows[i];
    if (!row) throw new Error(`Delivery ${a.deliveryId} does not exist`);
    observeDeliveryAttempt(row);
    return { deliveryId: a.deliveryId, ...recorded(row) };
  });
}

type TAttemptRow = {
  deliveryId: string;
  attempt: number;
  startedAt: string;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
  status: TDeliveryStatus;
  nextAttemptAt: string | null;
  lastError: string | null;
  ok: boolean;
  finishedAt: string;
  retryN: number | null;
};

type TStoredDelivery = {
  id: string;
  status: string;
  attempts: number;
  nextAttemptAt: Date | null;
  /** For the commit-to-delivery metric: created with its event; delivered by this very statement. */
  createdAt: Date;
  deliveredNow: boolean;
};

function attemptRow({ deliveryId, outcome, retryAt }: TAttemptToRecord, retryN: number | null): TAttemptRow {
  const status: TDeliveryStatus = outcome.ok ? "delivered" : retryAt === null ? "failed" : "pending";
  return {
    deliveryId,
    attempt: outcome.attempt,
    startedAt: new Date(outcome.startedAt).toISOString(),
    durationMs: outcome.durationMs,
    responseStatus: outcome.responseStatus,
    error: outcome.error,
    status,
    nextAttemptAt: status === "pending" && retryAt !== null ? new Date(retryAt).toISOString() : null,
    lastError: outcome.ok ? null : outcome.error,
    ok: outcome.ok,
    finishedAt: new Date(outcome.startedAt + outcome.durationMs).toISOString(),
    retryN,
  };
}

function recorded(row: TStoredDelivery): TRecordedDelivery {
  return {
    status: row.status as TDeliveryStatus,
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt === null ? null : new Date(row.nextAttemptAt).getTime(),
  };
}

/**
 * Logs the attempts not logged yet, applies each to its delivery unless the delivery is already past
 * it (a late repeat of an earlier attempt), schedules the retry events of newly logged attempts that
 * leave their delivery pending, and answers each delivery's state afterwards, in order. One
 * delivery at most once per statement.
 */
async function writeAttempts(attempts: readonly TAttemptRow[]): Promise<Array<TStoredDelivery | undefined>> {
  // named: planned once per connection (planning took ~0.3 ms of PostgreSQL CPU per batch). Deliveries are read
  // by id through each month's primary key (= ANY(ARRAY(…))): joined to the CTE, which the planner takes for 100
  // rows, they were hashed from whole months (468 buffers per statement with 5,800 deliveries in the month).
  const { rows } = await jobsPool().query<TStoredDelivery>({
    name: "webhook-record-attempts",
    text: `
    WITH a AS (
      SELECT * FROM jsonb_to_recordset($1::jsonb) AS a("deliveryId" text, attempt int, "startedAt" timestamptz,
        "durationMs" int, "responseStatus" int, error text, status text, "nextAttemptAt" timestamptz,
        "lastError" text, ok boolean, "finishedAt" timestamptz, "retryN" int)
    ),
    logged AS (
      INSERT INTO webhook_attempts (id, "deliveryId", attempt, "startedAt", "durationMs", "responseStatus", error)
      SELECT gen_random_uuid()::text, a."deliveryId", a.attempt, a."startedAt", a."durationMs", a."responseStatus",
             a.error
      FROM a
      WHERE NOT EXISTS (
        SELECT 1 FROM webhook_attempts w WHERE w."deliveryId" = a."deliveryId" AND w.attempt = a.attempt
      )
      RETURNING "deliveryId"
    ),
    moved AS (
      UPDATE webhook_deliveries d SET
        status = a.status,
        attempts = a.attempt,
        "nextAttemptAt" = a."nextAttemptAt",
        "lastError" = a."lastError",
        "deliveredAt" = CASE WHEN a.ok THEN a."finishedAt" ELSE d."deliveredAt" END,
        "updatedAt" = now()
      FROM a
      WHERE d.id = ANY(ARRAY(SELECT "deliveryId" FROM a)) AND d.id = a."deliveryId" AND d.attempts <= a.attempt
      RETURNING d.id, d."clientId", d.status, d.attempts, d."nextAttemptAt"
    ),
    retries AS (
      INSERT INTO outbox_events (id, "clientId", name, data)
      SELECT gen_random_uuid()::text, m."clientId", $2,
             jsonb_build_object('deliveryId', m.id, 'n', a."retryN",
                                'at', floor(extract(epoch FROM m."nextAttemptAt") * 1000)::bigint)
      FROM moved m JOIN a ON a."deliveryId" = m.id
      WHERE a."retryN" IS NOT NULL AND m.status = 'pending' AND m."nextAttemptAt" IS NOT NULL
        AND m.id IN (SELECT "deliveryId" FROM logged)
    )
    SELECT d.id,
           CASE WHEN m.id IS NULL THEN d.status ELSE m.status END AS status,
           CASE WHEN m.id IS NULL THEN d.attempts ELSE m.attempts END AS attempts,
           CASE WHEN m.id IS NULL THEN d."nextAttemptAt" ELSE m."nextAttemptAt" END AS "nextAttemptAt",
           d."createdAt", (m.status = 'delivered' AND d.status <> 'delivered') IS TRUE AS "deliveredNow"
    FROM webhook_deliveries d LEFT JOIN moved m ON m.id = d.id
    WHERE d.id = ANY(ARRAY(SELECT "deliveryId" FROM a))`,
    values: [JSON.stringify(attempts), WEBHOOK_RETRY_EVENT],
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return attempts.map((a) => byId.get(a.deliveryId));
}

// The single attempts recorded together (one statement for those that finished while the previous
// ran); one delivery never twice in one statement.
const recordOne = batcher<TAttemptRow, TStoredDelivery | undefined>(writeAttempts, {
  key: (a) => a.deliveryId,
});
