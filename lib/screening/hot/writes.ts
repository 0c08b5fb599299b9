import type { PoolClient } from "pg";
import { canonicalJson, keepFirstTimestamp } from "@/lib/merchants/upsert-merchant";
import type { TMerchant } from "@/lib/merchants/schemas";
import { newId, Params, RetryScreening } from "@/lib/screening/hot/sql";
import type { TSubscriptionRef } from "@/lib/screening/hot/config";
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
import { identifiersOfUser, normalizeIdentifier, type TIdentifier } from "@/lib/users/index-identifiers";
import { toStoredStatus, type TUser, type TUserDevice } from "@/lib/users/schemas";

// Raw-SQL versions of the writes a screening makes, as statement fragments (CTEs) that the caller
// puts into as few statements as possible. Same rows, same semantics as upsertUser, upsertMerchant,
// upsertDevice, indexIdentifiers and emitWebhookEvent (see those for the rules they implement).

export type TIdentifierRow = { kind: string; value: string; userId: string; source: string };

/** Identifier rows to insert, normalised and deduplicated (the first source wins, as sequential inserts). */
export class IdentifierRows {
  private readonly rows = new Map<string, TIdentifierRow>();
  add(userId: string, identifiers: TIdentifier[], source: string): void {
    for (const { kind, value } of identifiers) {
      const normalized = normalizeIdentifier(kind, value);
      if (normalized === "") continue;
      const key = `${kind}\u0000${normalized}\u0000${userId}`;
      if (!this.rows.has(key)) this.rows.set(key, { kind, value: normalized, userId, source });
    }
  }
  /** A CTE inserting them (ON CONFLICT DO NOTHING), or null when there are none. */
  cte(params: Params, clientId: string): string | null {
    if (this.rows.size === 0) return null;
    const values = params.rows(
      [...this.rows.values()].map((r) => [
        [clientId, "text"],
        [r.kind, "text"],
        [r.value, "text"],
        [r.userId, "text"],
        [r.source, "text"],
      ]),
    );
    return `INSERT INTO "user_identifiers" ("clientId", "kind", "value", "userId", "source") VALUES ${values} ON CONFLICT DO NOTHING`;
  }
  /**
   * A CTE counting one use, at `usedAt`, of each of `userId`'s identifiers (user_identifier_uses:
   * since when a value is shared, windowed link counts), or null when there are none.
   */
  usesCte(params: Params, clientId: string, userId: string, usedAt: string): string | null {
    const mine = [...this.rows.values()].filter((r) => r.userId === userId);
    if (mine.length === 0) return null;
    const at = params.add(usedAt, "timestamptz");
    const values = params.rows(
      mine.map((r) => [
        [r.kind, "text"],
        [r.value, "text"],
      ]),
    );
    return `INSERT INTO "user_identifier_uses" AS x ("clientId", "kind", "value", "userId", "firstUsedAt", "lastUsedAt", "transactionCount")
       SELECT ${params.add(clientId, "text")}, v."kind", v."value", ${params.add(userId, "text")}, ${at}, ${at}, 1
       FROM (VALUES ${values}) AS v("kind", "value")
       ON CONFLICT ("clientId", "kind", "value", "userId") DO UPDATE SET
         "firstUsedAt" = least(x."firstUsedAt", EXCLUDED."firstUsedAt"),
         "lastUsedAt" = greatest(x."lastUsedAt", EXCLUDED."lastUsedAt"),
         "transactionCount" = x."transactionCount" + 1`;
  }
}

export function deviceIdentifiers(device: TUserDevice): TIdentifier[] {
  const out: TIdentifier[] = [];
  if (device.ipAddress) out.push({ kind: "ipAddress", value: device.ipAddress });
  if (device.fingerprint) out.push({ kind: "deviceFingerprint", value: device.fingerprint });
  return out;
}

/** Upsert of a device as a statement fragment: first seen kept, the rest follows the latest sighting. */
export function deviceUpsert(
  params: Params,
  {
    clientId,
    userId,
    device,
    seenAt,
  }: { clientId: string; userId: string; device: TUserDevice; seenAt: Date },
): string {
  const keepIfUnset = (column: string, value: unknown) =>
    value === undefined ? `"${column}" = "devices"."${column}"` : `"${column}" = EXCLUDED."${column}"`;
  return (
    `INSERT INTO "devices" ("clientId", "id", "userId", "fingerprint", "ipAddress", "data", "firstSeenAt", "lastSeenAt") ` +
    `VALUES (${params.add(clientId, "text")}, ${params.add(device.id, "text")}, ${params.add(userId, "text")}, ` +
    `${params.add(device.fingerprint ?? null, "text")}, ${params.add(device.ipAddress ?? null, "text")}, ` +
    `${params.json(device)}, ${params.add(seenAt, "timestamptz")}, ${params.add(seenAt, "timestamptz")}) ` +
    `ON CONFLICT ("clientId", "id") DO UPDATE SET "userId" = EXCLUDED."userId", ` +
    `${keepIfUnset("fingerprint", device.fingerprint)}, ${keepIfUnset("ipAddress", device.ipAddress)}, ` +
    `"data" = EXCLUDED."data", "lastSeenAt" = EXCLUDED."lastSeenAt"`
  );
}

/**
 * upsertUser in two statements at most: insert-or-lock (with the status-change row of a creation and
 * the removal of the user's phone and email links), then the update of an existing user. The user's
 * identifiers and device are added to `identifiers` / returned for the caller's next statement.
 */
export async function upsertUserRaw(
  db: PoolClient,
  {
    clientId,
    user,
    source,
    identifiers,
  }: { clientId: string; user: TUser; source: string; identifiers: IdentifierRows },
): Promise<void> {
  const requested = user.status ? toStoredStatus(user.status) : undefined;
  const now = new Date();
  const p = new Params();
  const c = p.add(clientId, "text");
  const u = p.add(user.id, "text");
  const src = p.add(source, "text");
  const first = await db.query<{ inserted: number; current: string | null }>(
    `WITH ins AS (
       INSERT INTO "users" ("clientId", "id", "firstName", "lastName", "email", "phone", "data", "status", "createdAt", "updatedAt")
       VALUES (${c}, ${u}, ${p.add(user.firstName ?? null, "text")}, ${p.add(user.lastName ?? null, "text")},
         ${p.add(user.email?.email ?? null, "text")}, ${p.add(user.phone?.phone ?? null, "text")}, ${p.json(user)},
         ${p.add(requested ?? "active", "text")}, ${p.add(new Date(user.timestamp), "timestamptz")}, ${p.add(now, "timestamptz")})
       ON CONFLICT DO NOTHING RETURNING "status"),
     sc AS (
       INSERT INTO "user_status_changes" ("id", "clientId", "userId", "fromStatus", "toStatus", "source", "details")
       SELECT ${p.add(newId(), "text")}, ${c}, ${u}, NULL, ins."status", ${src}, '{"created":true}'::jsonb FROM ins),
     del AS (
       DELETE FROM "user_identifiers" WHERE "clientId" = ${c} AND "userId" = ${u} AND "kind" IN ('phone', 'email'))
     SELECT (SELECT count(*) FROM ins)::int AS "inserted",
       (SELECT "status" FROM "users" WHERE "clientId" = ${c} AND "id" = ${u} FOR UPDATE) AS "current"`,
    p.values,
  );
  const row = first.rows[0]!;
  if (row.inserted === 0) {
    // created concurrently by another transaction that this statement's snapshot did not see
    if (row.current === null) throw new RetryScreening(`user ${user.id} created concurrently`);
    const status = requested ?? row.current;
    const changed = status !== row.current;
    const q = new Params();
    const qc = q.add(clientId, "text");
    const qu = q.add(user.id, "text");
    await db.query(
      `WITH upd AS (
         UPDATE "users" SET "firstName" = ${q.add(user.firstName ?? null, "text")}, "lastName" = ${q.add(user.lastName ?? null, "text")},
           "email" = ${q.add(user.email?.email ?? null, "text")}, "phone" = ${q.add(user.phone?.phone ?? null, "text")},
           "data" = ${q.json(user)}, "status" = ${q.add(status, "text")}, "updatedAt" = ${q.add(now, "timestamptz")}
           ${changed ? `, "statusReason" = NULL` : ""}
         WHERE "clientId" = ${qc} AND "id" = ${qu})
       ${
         changed
           ? `INSERT INTO "user_status_changes" ("id", "clientId", "userId", "fromStatus", "toStatus", "source")
              VALUES (${q.add(newId(), "text")}, ${qc}, ${qu}, ${q.add(row.current, "text")}, ${q.add(status, "text")}, ${q.add(source, "text")})`
           : "SELECT 1"
       }`,
      q.values,
    );
  }
  identifiers.add(user.id, identifiersOfUser(user), source);
}

/**
 * upsertMerchant in one statement (insert, or lock the existing row) plus one when an existing
 * merchant changed (history row and update). The stored body keeps the first timestamp.
 */
export async function upsertMerchantRaw(
  db: PoolClient,
  { clientId, merchant }: { clientId: string; merchant: TMerchant },
): Promise<void> {
  const now = new Date();
  const p = new Params();
  const c = p.add(clientId, "text");
  const m = p.add(merchant.id, "text");
  const first = await db.query<{ inserted: number; data: unknown; createdAt: Date | null }>(
    `WITH ins AS (
       INSERT INTO "merchants" ("clientId", "id", "name", "status", "organizationId", "data", "createdAt", "updatedAt")
       VALUES (${c}, ${m}, ${p.add(merchant.name, "text")}, ${p.add(merchant.status ?? null, "text")},
         ${p.add(merchant.organizationId ?? null, "text")}, ${p.json(merchant)},
         ${p.add(new Date(merchant.timestamp), "timestamptz")}, ${p.add(now, "timestamptz")})
       ON CONFLICT DO NOTHING RETURNING 1)
     SELECT (SELECT count(*) FROM ins)::int AS "inserted", m."data", m."createdAt"
     FROM (SELECT 1) one LEFT JOIN LATERAL (
       SELECT "data", "createdAt" FROM "merchants" WHERE "clientId" = ${c} AND "id" = ${m} FOR UPDATE) m ON true`,
    p.values,
  );
  const row = first.rows[0]!;
  if (row.inserted === 1) return;
  if (!row.createdAt) throw new RetryScreening(`merchant ${merchant.id} created concurrently`);
  const kept = keepFirstTimestamp(merchant, row.createdAt);
  // An identical resend (a retried request) is not a correction and leaves no history.
  if (canonicalJson(row.data) === canonicalJson(kept)) return;
  const q = new Params();
  const qc = q.add(clientId, "text");
  const qm = q.add(merchant.id, "text");
  await db.query(
    `WITH v AS (
       INSERT INTO "merchant_versions" ("id", "clientId", "merchantId", "data", "createdAt")
       VALUES (${q.add(newId(), "text")}, ${qc}, ${qm}, ${q.json(row.data)}, ${q.add(now, "timestamptz")}))
     UPDATE "merchants" SET "name" = ${q.add(merchant.name, "text")}, "status" = ${q.add(merchant.status ?? null, "text")},
       "organizationId" = ${q.add(merchant.organizationId ?? null, "text")}, "data" = ${q.json(kept)},
       "updatedAt" = ${q.add(now, "timestamptz")}
     WHERE "clientId" = ${qc} AND "id" = ${qm}`,
    q.values,
  );
}

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
 * "tag" column) returned that tag.
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
  return [
    `wo AS (INSERT INTO "outbox_events" ("id", "clientId", "name", "data")
       SELECT o."id", ${c}, o."name", o."data" FROM (VALUES ${outbox}) AS o("tag", "id", "name", "data") WHERE ${keep("o")})`,
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
    ctes.push(`a AS (INSERT INTO "alerts" ("id", "clientId", "transactionId", "userId", "ruleRef", "ruleId",
         "ruleVersionId", "ruleName", "level", "reason", "recommendedAction", "decisionId", "createdAt")
       SELECT v."id", ${c}, ${id}, ${p.add(userId, "text")}, v."ruleRef", v."ruleId", v."versionId", v."name",
         v."level", v."reason", v."action", ${p.add(decisionId, "text")}, ${p.add(now, "timestamptz")}
       FROM (VALUES ${values}) AS v("id", "ruleRef", "ruleId", "versionId", "name", "level", "reason", "action")
       ON CONFLICT ("clientId", "transactionId", "ruleRef") DO NOTHING RETURNING "ruleRef" AS "tag")`);
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
