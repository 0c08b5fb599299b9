import type { Tx } from "@/lib/db";
import { emitWebhook } from "@/lib/webhooks/emit";
import type { TWebhookEventType } from "@/lib/webhooks/event-types";

// Payload shapes of the interface's Events table (timestamps in epoch ms), so emitters get type checking.

export type TTriggeredRuleSummary = { id: string; name?: string; level?: string; [extra: string]: unknown };

/** transaction.screened, user.screened, merchant.screened, payment_instrument.screened, event.screened (decisions §7). */
export type TRiskAssessmentPayload = {
  id: string;
  riskLevel: string;
  recommendedAction: string;
  triggered: TTriggeredRuleSummary[];
  timestamp?: number;
  [extra: string]: unknown;
};

export type TAlertCreatedPayload = {
  transactionId: string;
  ruleId: string;
  ruleName: string;
  level: string;
  reason: string;
  recommendedAction: string;
  alertedAt: number;
};

export type TAlertReviewedPayload = {
  transactionId: string;
  ruleId: string;
  status: "cleared" | "confirmed" | "escalated";
  reviewedBy: string;
  reviewedAt: number;
  feedback: string;
};

export type TTransactionConfirmedPayload = {
  transactionId: string;
  feedback: string;
  confirmedBy: string;
  confirmedAt: number;
};

export type TUserStatusPayload<S extends "blocked" | "active"> = {
  id: string;
  status: S;
  reason: string;
  updatedAt: number;
};

/** case.created is written by the database (migration 20261125040000_cases); case.closed by lib/cases/close-case.ts. */
export type TCaseSubject = { type: "user" | "merchant" | "transaction"; id: string };

export type TCaseCreatedPayload = {
  caseId: string;
  subject: TCaseSubject;
  status: "open";
  priority: string;
  dueAt: number;
  createdAt: number;
  alertIds: string[];
};

export type TCaseClosedPayload = {
  caseId: string;
  subject: TCaseSubject;
  status: "closed";
  priority: string;
  outcome: string;
  note: string;
  closedBy: string;
  closedAt: number;
  reportId: string | null;
  alertIds: string[];
};

export type TWebhookPayloads = {
  "transaction.screened": TRiskAssessmentPayload;
  "user.screened": TRiskAssessmentPayload;
  "merchant.screened": TRiskAssessmentPayload;
  "payment_instrument.screened": TRiskAssessmentPayload;
  "event.screened": TRiskAssessmentPayload;
  "alert.created": TAlertCreatedPayload;
  "alert.reviewed": TAlertReviewedPayload;
  "transaction.confirmedFraud": TTransactionConfirmedPayload;
  "transaction.confirmedChargeback": TTransactionConfirmedPayload;
  "user.status.block": TUserStatusPayload<"blocked">;
  "user.status.unblock": TUserStatusPayload<"active">;
  "case.created": TCaseCreatedPayload;
  "case.closed": TCaseClosedPayload;
};

/**
 * `emitWebhook` with the payload type checked against the event type. Call it inside the
 * transaction that makes the change; answers the number of deliveries created.
 */
export function emitWebhookEvent<E extends TWebhookEventType>(
  tx: Tx,
  {
    clientId,
    event,
    payload,
    timestamp,
  }: { clientId: string; event: E; payload: TWebhookPayloads[E]; timestamp?: number },
): Promise<number> {
  return emitWebhook(tx, { clientId, event, payload: payload as Record<string, unknown>, timestamp });
}

/** The user.status.* reason: the reviewer's comment and who made it, e.g. "Chargeback fraud (by alice)". */
export function userStatusReason({
  comment,
  reviewer,
}: {
  comment?: string | null;
  reviewer?: string | null;
}): string {
  const text = comment?.trim() ?? "";
  const who = reviewer?.trim() ?? "";
  if (text && who) return `${text} (by ${who})`;
  return text || (who ? `by ${who}` : "");
}
