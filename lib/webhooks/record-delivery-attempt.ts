import { jobsPool } from "@/lib/db";
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
 * One SQL statement rather than an interactive transaction: background work must never hold a
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
  const nextAttemptAt = status === "pending" && retryAt !== null ? new Date(retryAt) : null;
  const startedAt = new Date(outcome.startedAt);
  const finishedAt = new Date(outcome.startedAt + outcome.durationMs);
  const { rows } = await jobsPool().query<{ status: string; attempts: number; nextAttemptAt: Date | null }>(
    `
    WITH logged AS (
      INSERT INTO webhook_attempts (id, "deliveryId", attempt, "startedAt", "durationMs", "responseStatus", error)
      SELECT gen_random_uuid()::text, $1::text, $2::int, $3::timestamptz,
             $4::int, $5::int, $6::text
      WHERE NOT EXISTS (
        SELECT 1 FROM webhook_attempts WHERE "deliveryId" = $1::text AND attempt = $2::int
      )
      RETURNING id
    )
    UPDATE webhook_deliveries SET
      status = $7::text,
      attempts = $2::int,
      "nextAttemptAt" = $8::timestamptz,
      "lastError" = $9::text,
      "deliveredAt" = CASE WHEN $10::boolean THEN $11::timestamptz ELSE "deliveredAt" END,
      "updatedAt" = now()
    WHERE id = $1::text
    RETURNING status, attempts, "nextAttemptAt"`,
    [
      deliveryId,
      outcome.attempt,
      startedAt,
      outcome.durationMs,
      outcome.responseStatus,
      outcome.error,
      status,
      nextAttemptAt,
      outcome.ok ? null : outcome.error,
      outcome.ok,
      finishedAt,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error(`Delivery ${deliveryId} does not exist`);
  return {
    status: row.status as TDeliveryStatus,
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt?.getTime() ?? null,
  };
}
