import { jobsPool } from "@/lib/db";
import { batcher } from "@/lib/db-batch";
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

/**
 * Logs an attempt and moves the delivery on: delivered on success, pending with the next attempt
 * time while retries remain (`retryAt`), failed otherwise. Safe to run twice for one attempt.
 *
 * One SQL statement (shared with the attempts recorded at the same moment) rather than an interactive transaction: background work must never hold a
 * transaction open on the embedded database, where a transaction on one connection disturbs the
 * statements of the others (the request handlers').
 */
export async function recordDeliveryAttempt({
  deliveryId,
  outcome,
  retryAt,
}: {
  deliveryId: string;
  outcome: TAttemptResult;
  retryAt: number | null;
}): Promise<TRecordedDelivery> {
  const status: TDeliveryStatus = outcome.ok ? "delivered" : retryAt === null ? "failed" : "pending";
  const row = await recordAttempts({
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
  });
  if (!row) throw new Error(`Delivery ${deliveryId} does not exist`);
  return {
    status: row.status as TDeliveryStatus,
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt === null ? null : new Date(row.nextAttemptAt).getTime(),
  };
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
};

type TStoredDelivery = { id: string; status: string; attempts: number; nextAttemptAt: Date | null };

// The attempts recorded together (one statement for those that finished while the previous ran);
// one delivery never twice in one statement.
const recordAttempts = batcher<TAttemptRow, TStoredDelivery | undefined>(
  async (attempts) => {
    const { rows } = await jobsPool().query<TStoredDelivery>(
      `
      WITH a AS (
        SELECT * FROM jsonb_to_recordset($1::jsonb) AS a("deliveryId" text, attempt int, "startedAt" timestamptz,
          "durationMs" int, "responseStatus" int, error text, status text, "nextAttemptAt" timestamptz,
          "lastError" text, ok boolean, "finishedAt" timestamptz)
      ),
      logged AS (
        INSERT INTO webhook_attempts (id, "deliveryId", attempt, "startedAt", "durationMs", "responseStatus", error)
        SELECT gen_random_uuid()::text, a."deliveryId", a.attempt, a."startedAt", a."durationMs", a."responseStatus",
               a.error
        FROM a
        WHERE NOT EXISTS (
          SELECT 1 FROM webhook_attempts w WHERE w."deliveryId" = a."deliveryId" AND w.attempt = a.attempt
        )
        RETURNING id
      )
      UPDATE webhook_deliveries d SET
        status = a.status,
        attempts = a.attempt,
        "nextAttemptAt" = a."nextAttemptAt",
        "lastError" = a."lastError",
        "deliveredAt" = CASE WHEN a.ok THEN a."finishedAt" ELSE d."deliveredAt" END,
        "updatedAt" = now()
      FROM a
      WHERE d.id = a."deliveryId"
      RETURNING d.id, d.status, d.attempts, d."nextAttemptAt"`,
      [JSON.stringify(attempts)],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return attempts.map((a) => byId.get(a.deliveryId));
  },
  { key: (a) => a.deliveryId },
);
