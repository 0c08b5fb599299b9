export const WEBHOOK_EVENT_TYPES = [
  "transaction.screened",
  "user.screened",
  "user.status.block",
  "user.status.unblock",
  "payment_instrument.screened",
  "event.screened",
  "merchant.screened",
  "alert.created",
  "alert.reviewed",
  "transaction.confirmedFraud",
  "transaction.confirmedChargeback",
  "case.created",
  "case.closed",
] as const;
export type TWebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * The documented set for business clients; consumer-facing clients may subscribe to every type.
 * Cases group the alerts business clients already receive, so their events are in both sets (docs/decisions.md §12).
 */
export const BUSINESS_EVENT_TYPES: readonly TWebhookEventType[] = [
  "transaction.screened",
  "merchant.screened",
  "alert.created",
  "alert.reviewed",
  "transaction.confirmedFraud",
  "transaction.confirmedChargeback",
  "case.created",
  "case.closed",
];

export function allowedEventTypes(clientType: "business" | "consumer"): readonly TWebhookEventType[] {
  return clientType === "business" ? BUSINESS_EVENT_TYPES : WEBHOOK_EVENT_TYPES;
}
