import { z } from "zod";
import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import { actorLabel, type TDashboardActor } from "@/lib/alerts/actor";
import { settleAlerts } from "@/lib/alerts/settle-alerts";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { webhookPayload } from "@/lib/webhooks/payloads";
import { readStoredTransaction } from "@/lib/transactions/read-stored-transaction";

export type TConfirmationKind = TConfirmTransaction["kind"];

export type TConfirmation = {
  transactionId: string;
  kind: TConfirmationKind;
  /** false when the transaction was already marked: nothing is written and no webhook is sent again. */
  changed: boolean;
  confirmedBy: string;
  confirmedAt: number;
  feedback: string;
  /** Unsettled alerts of the transaction confirmed with this verdict (alert.reviewed each). */
  alertsClosed: number;
};

/** The dashboard's confirmation of a transaction (the route's body). */
export const ZConfirmTransaction = z.object({
  kind: z.enum(["fraud", "chargeback"]),
  // a confirmation is a verdict: its reasons are part of the record
  feedback: z.string({ error: "A note is required" }).trim().min(1, "A note is required").max(5000),
  /** The transaction's open alerts are confirmed with the same note. */
  closeAlerts: z.boolean().default(true),
});
export type TConfirmTransaction = z.infer<typeof ZConfirmTransaction>;

const EVENT = { fraud: "transaction.confirmedFraud", chargeback: "transaction.confirmedChargeback" } as const;

/**
 * A reviewer's confirmation that a transaction was fraud (isFraud) or a chargeback (isChargeback and
 * status CHARGEBACK): the transaction, a TransactionUpdate from the dashboard, the webhook and the
 * audit row are written together. The row lock makes two simultaneous confirmations send one webhook.
 */
export async function confirmTransaction(
  input: { clientId: string; transactionId: string; confirmer: TDashboardActor } & TConfirmTransaction,
): Promise<TConfirmation> {
  const { clientId, kind, confirmer, transactionId, feedback, closeAlerts } = input;
  const confirmedBy = actorLabel(confirmer);
  return prisma.$transaction(async (tx) => {
    const found = await readStoredTransaction(tx, clientId, transactionId, async (where) => {
      const rows = await tx.$queryRaw<{ status: string; isFraud: boolean; isChargeback: boolean }[]>`
        SELECT status, "isFraud", "isChargeback" FROM transactions
        WHERE "clientId" = ${clientId} AND id = ${transactionId} AND "occurredAt" = ${where.occurredAt}
        FOR UPDATE`;
      return rows[0];
    });
    if (!found) throw notFound("/transactionId", "Transaction not found");
    const { where, row: current } = found;
    const now = new Date();
    const already = kind === "fraud" ? current.isFraud : current.isChargeback;
    const settle = async () =>
      closeAlerts
        ? (
            await settleAlerts(tx, {
              clientId,
              where: { transactionId },
              status: "confirmed",
              feedback,
              reviewer: confirmer,
              cause: EVENT[kind],
            })
          ).length
        : 0;
    if (already) {
      // marked before: no second webhook, but alerts still open get the verdict when asked
      const alertsClosed = await settle();
      return {
        transactionId,
        kind,
        changed: false,
        confirmedBy,
        confirmedAt: now.getTime(),
        feedback,
        alertsClosed,
      };
    }

    await tx.transaction.update({
      where,
      data:
        kind === "fraud"
          ? { isFraud: true, updatedAt: now }
          : { isChargeback: true, status: "CHARGEBACK", updatedAt: now },
    });
    await tx.transactionUpdate.create({
      data: {
        clientId,
        transactionId,
        status: kind === "chargeback" ? "CHARGEBACK" : null,
        type: kind === "fraud" ? "confirmed_fraud" : "confirmed_chargeback",
        description: feedback || null,
        isFraudulent: kind === "fraud" ? true : null,
        source: "dashboard",
        actor: confirmedBy,
        changes:
          kind === "fraud"
            ? { isFraud: { from: false, to: true } }
            : { isChargeback: { from: false, to: true }, status: { from: current.status, to: "CHARGEBACK" } },
        occurredAt: now,
        createdAt: now,
      },
    });
    await emitWebhookEvent(tx, {
      clientId,
      event: EVENT[kind],
      payload: webhookPayload[EVENT[kind]]({ transactionId, feedback, confirmedBy, confirmedAt: now }),
      timestamp: now.getTime(),
    });
    await tx.auditLog.create({
      data: {
        clientId,
        actorType: "dashboard_user",
        actorId: confirmer.id,
        action: EVENT[kind],
        entityType: "transaction",
        entityId: transactionId,
        details: { feedback, closeAlerts },
        createdAt: now,
      },
    });
    const alertsClosed = await settle();
    return {
      transactionId,
      kind,
      changed: true,
      confirmedBy,
      confirmedAt: now.getTime(),
      feedback,
      alertsClosed,
    };
  });
}
