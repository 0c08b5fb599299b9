import { newId, Params } from "@/lib/screening/sql/statements";
import type { TSubscriptionRef } from "@/lib/screening/screening-config";
import type { TFiredRule } from "@/lib/screening/run-rules";
import type { TWebhookEventType } from "@/lib/webhooks/event-types";
import {
  emittedEventData,
  listeningSubscriptions,
  WEBHOOK_DELIVERY_EVENT,
  WEBHOOK_EMITTED_EVENT,
} from "@/lib/webhooks/emit";
import {
  webhookEnvelope,
  webhookPayload,
  type TRiskAssessmentPayload,
  type TWebhookEvent,
} from "@/lib/webhooks/payloads";

// The webhook deliveries and outbox rows a screening writes, and a transaction's alerts with their
// alert.created webhooks, as statement fragments (CTEs) of the screening's write.

/**
 * Webhook rows of one event (as emitWebhookEvent writes them): the event's outbox row, one delivery per
 * subscription listening to it and the delivery's outbox row. `tag` lets the caller keep only the rows
 * of events that really happened (an alert that was already open emits nothing).
 */
export type TWebhookRows = {
  outbox: Array<{ tag: string | null; id: string; name: string; data: unknown }>;
  deliveries: Array<{
    tag: string | null;
    id: string;
    subscriptionId: string;
    outboxEventId: string;
    eventType: string;
    body: string;
  }>;
};

export function webhookRows<E extends TWebhookEventType>(
  rows: TWebhookRows,
  subscriptions: readonly TSubscriptionRef[],
  { event, payload, tag = null, timestamp = Date.now() }: TWebhookEvent<E> & { tag?: string | null },
): void {
  const listening = listeningSubscriptions(subscriptions, event);
  if (listening.length === 0) return;
  const body = webhookEnvelope(event, payload, timestamp);
  const outboxEventId = newId();
  rows.outbox.push({
    tag,
    id: outboxEventId,
    name: WEBHOOK_EMITTED_EVENT,
    data: emittedEventData(event, timestamp),
  });
  for (const subscription of listening) {
    const id = newId();
    rows.deliveries.push({ tag, id, subscriptionId: subscription.id, outboxEventId, eventType: event, body });
    rows.outbox.push({ tag, id: newId(), name: WEBHOOK_DELIVERY_EVENT, data: { deliveryId: id } });
  }
}

/**
 * CTEs inserting the webhook rows; rows with a tag are kept only when `tagsFrom` (a CTE returning a
 * "tag" column) returned that tag. The statement must be run by commitWrite, which wakes the job drivers
 * after its commit (its outbox rows are marked "writerWakes": their insert notifies nobody).
 */
export function webhookCtes(
  params: Params,
  clientId: string,
  rows: TWebhookRows,
  tagsFrom: string | null,
  nextAttemptAt: Date,
): string[] {
  if (rows.outbox.length === 0) return [];
  const keep = (alias: string) =>
    tagsFrom ? `${alias}."tag" IS NULL OR ${alias}."tag" IN (SELECT "tag" FROM ${tagsFrom})` : "TRUE";
  const c = params.add(clientId, "text");
  const outbox = params.rows(
    rows.outbox.map((o) => [
      [o.tag, "text"],
      [o.id, "text"],
      [o.name, "text"],
      [JSON.stringify(o.data), "jsonb"],
    ]),
  );
  const deliveries = params.rows(
    rows.deliveries.map((d) => [
      [d.tag, "text"],
      [d.id, "text"],
      [d.subscriptionId, "text"],
      [d.outboxEventId, "text"],
      [d.eventType, "text"],
      [d.body, "text"],
    ]),
  );
  const at = params.add(nextAttemptAt, "timestamptz");
  // no NOTIFY inside the write's transaction: commitWrite wakes the drivers after its commit
  params.wakesJobs = true;
  return [
    `wo AS (INSERT INTO "outbox_events" ("id", "clientId", "name", "data", "writerWakes")
       SELECT o."id", ${c}, o."name", o."data", TRUE FROM (VALUES ${outbox}) AS o("tag", "id", "name", "data") WHERE ${keep("o")})`,
    `wd AS (INSERT INTO "webhook_deliveries" ("id", "clientId", "subscriptionId", "outboxEventId", "eventType", "body", "nextAttemptAt")
       SELECT d."id", ${c}, d."sub", d."outbox", d."type", d."body", ${at}
       FROM (VALUES ${deliveries}) AS d("tag", "id", "sub", "outbox", "type", "body") WHERE ${keep("d")})`,
  ];
}

/**
 * The alerts and webhook rows of a transaction screening, as CTEs (`a`, then webhookCtes): openAlerts
 * (one alert per transaction and active rule that fired; one already open emits nothing), its
 * `alert.created` webhooks and `transaction.screened`. `c` and `id` are the placeholders of the
 * client id and the transaction id.
 */
export function transactionAlertCtes(
  p: Params,
  {
    clientId,
    c,
    id,
    transactionId,
    userId,
    decisionId,
    firedActive,
    subscriptions,
    answer,
    now,
  }: {
    clientId: string;
    c: string;
    id: string;
    transactionId: string;
    userId: string | null;
    decisionId: string;
    firedActive: readonly TFiredRule[];
    subscriptions: readonly TSubscriptionRef[];
    answer: TRiskAssessmentPayload;
    now: Date;
  },
): string[] {
  const ctes: string[] = [];
  const webhooks: TWebhookRows = { outbox: [], deliveries: [] };
  const active = firedActive.filter((f) => f.status === "active");
  if (active.length) {
    const values = p.rows(
      active.map((f) => [
        [newId(), "text"],
        [f.ruleRef, "text"],
        [f.id, "text"],
        [f.versionId, "text"],
        [f.name, "text"],
        [f.level, "text"],
        [f.reason, "text"],
        [f.recommendedAction, "text"],
      ]),
    );
    // An alert already raised for this transaction and rule is skipped by the "alert_key_inserted" trigger
    // (migration 20261127030300_alert_keys); no conflict target, so that alerts can become partitioned.
    ctes.push(`a AS (INSERT INTO "alerts" ("id", "clientId", "transactionId", "userId", "ruleRef", "ruleId",
         "ruleVersionId", "ruleName", "level", "reason", "recommendedAction", "decisionId", "createdAt")
       SELECT v."id", ${c}, ${id}, ${p.add(userId, "text")}, v."ruleRef", v."ruleId", v."versionId", v."name",
         v."level", v."reason", v."action", ${p.add(decisionId, "text")}, ${p.add(now, "timestamptz")}
       FROM (VALUES ${values}) AS v("id", "ruleRef", "ruleId", "versionId", "name", "level", "reason", "action")
       ON CONFLICT DO NOTHING RETURNING "ruleRef" AS "tag")`);
    for (const f of active)
      webhookRows(webhooks, subscriptions, {
        event: "alert.created",
        tag: f.ruleRef,
        payload: webhookPayload["alert.created"]({ transactionId, rule: f, alertedAt: now }),
      });
  }
  webhookRows(webhooks, subscriptions, {
    event: "transaction.screened",
    payload: webhookPayload["transaction.screened"](answer),
  });
  ctes.push(...webhookCtes(p, clientId, webhooks, active.length ? "a" : null, new Date()));
  return ctes;
}
