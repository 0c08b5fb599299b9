import type { TWebhookEventType } from "@/lib/webhooks/event-types";

// Payload shapes of the interface's Events table (timestamps in epoch ms), and the one builder per event
// type that every emitter uses: the Prisma transactions' emitWebhookEvent and the raw-SQL screening's
// webhookRows (lib/screening/sql/webhook-rows.ts). The field order of each builder is the order of the bytes
// the client receives and signs: keep it.

export type TTriggeredRuleSummary = { id: string; name?: string; level?: string; [extra: string]: unknown };

/** transaction.screened, user.screened, merchant.screened, payment_instrument.screened, event.screened (docs/decisions.md §7). */
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

/**
 * case.created is written by the database, by the alerts trigger in the statement that inserts the
 * alert (emit_webhook, migration 20261125040000_cases; docs/architecture.md); case.closed by
 * lib/cases/close-case.ts.
 */
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

/** The `<subject>.screened` events, whose payload is the screening's RiskAssessment answer. */
export type TScreenedEventType =
  | "transaction.screened"
  | "user.screened"
  | "merchant.screened"
  | "payment_instrument.screened"
  | "event.screened";

/** What fired an alert: the rule's id, name and verdict (a fired rule, or the alert row's copy of it). */
export type TAlertRule = {
  id: string;
  name: string;
  level: string;
  reason: string;
  recommendedAction: string;
};

const screened = (assessment: TRiskAssessmentPayload): TRiskAssessmentPayload => ({ ...assessment });

const confirmed = (c: {
  transactionId: string;
  feedback: string;
  confirmedBy: string;
  confirmedAt: Date;
}): TTransactionConfirmedPayload => ({
  transactionId: c.transactionId,
  feedback: c.feedback,
  confirmedBy: c.confirmedBy,
  confirmedAt: c.confirmedAt.getTime(),
});

const userStatus =
  <S extends "blocked" | "active">(status: S) =>
  (u: { id: string; reason: string; updatedAt: Date }): TUserStatusPayload<S> => ({
    id: u.id,
    status,
    reason: u.reason,
    updatedAt: u.updatedAt.getTime(),
  });

/** The payload of each event type, built from what caused it. */
export const webhookPayload = {
  "transaction.screened": screened,
  "user.screened": screened,
  "merchant.screened": screened,
  "payment_instrument.screened": screened,
  "event.screened": screened,
  "alert.created": (a: {
    transactionId: string;
    rule: TAlertRule;
    alertedAt: Date;
  }): TAlertCreatedPayload => ({
    transactionId: a.transactionId,
    ruleId: a.rule.id,
    ruleName: a.rule.name,
    level: a.rule.level,
    reason: a.rule.reason,
    recommendedAction: a.rule.recommendedAction,
    alertedAt: a.alertedAt.getTime(),
  }),
  "alert.reviewed": (r: {
    alert: { transactionId: string; ruleId: string };
    status: TAlertReviewedPayload["status"];
    reviewedBy: string;
    reviewedAt: Date;
    feedback: string;
  }): TAlertReviewedPayload => ({
    transactionId: r.alert.transactionId,
    ruleId: r.alert.ruleId,
    status: r.status,
    reviewedBy: r.reviewedBy,
    reviewedAt: r.reviewedAt.getTime(),
    feedback: r.feedback,
  }),
  "transaction.confirmedFraud": confirmed,
  "transaction.confirmedChargeback": confirmed,
  "user.status.block": userStatus("blocked"),
  "user.status.unblock": userStatus("active"),
  "case.created": (c: {
    caseId: string;
    subject: TCaseSubject;
    priority: string;
    dueAt: Date;
    createdAt: Date;
    alertIds: string[];
  }): TCaseCreatedPayload => ({
    caseId: c.caseId,
    subject: c.subject,
    status: "open",
    priority: c.priority,
    dueAt: c.dueAt.getTime(),
    createdAt: c.createdAt.getTime(),
    alertIds: c.alertIds,
  }),
  "case.closed": (c: {
    caseId: string;
    subject: TCaseSubject;
    priority: string;
    outcome: string;
    note: string;
    closedBy: string;
    closedAt: Date;
    reportId: string | null;
    alertIds: string[];
  }): TCaseClosedPayload => ({
    caseId: c.caseId,
    subject: c.subject,
    status: "closed",
    priority: c.priority,
    outcome: c.outcome,
    note: c.note,
    closedBy: c.closedBy,
    closedAt: c.closedAt.getTime(),
    reportId: c.reportId,
    alertIds: c.alertIds,
  }),
} satisfies { [E in TWebhookEventType]: (source: never) => TWebhookPayloads[E] };

/** One event of a type with its payload; `timestamp` (epoch ms) defaults to the time of the write. */
export type TWebhookEvent<E extends TWebhookEventType = TWebhookEventType> = {
  event: E;
  payload: TWebhookPayloads[E];
  timestamp?: number;
};

/** The envelope every delivery body is, serialised once per event: `{"event":…,"payload":…,"timestamp":…}`. */
export function webhookEnvelope<E extends TWebhookEventType>(
  event: E,
  payload: TWebhookPayloads[E],
  timestamp: number,
): string {
  return JSON.stringify({ event, payload, timestamp });
}
